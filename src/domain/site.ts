/** What the operator tells about itself (site configuration); unset fields are not shown anywhere. */
export interface SiteInfo {
  name: string;
  legalName: string;
  supportEmail: string;
  phone: string | null;
  address: string | null;
}
