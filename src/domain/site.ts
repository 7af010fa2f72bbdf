/** What the operator tells about itself (site configuration); unset fields are not shown anywhere. */
export interface SiteInfo {
  name: string;
  legalName: string;
  supportEmail: string;
  /** Contact for data protection requests; the support address when not set. */
  privacyEmail: string;
  phone: string | null;
  /** Postal address as one line, e.g. "Musterstraße 1, 10115 Berlin, Deutschland". */
  address: string | null;
  /** Umsatzsteuer-Identifikationsnummer (§ 27a UStG). */
  vatId: string | null;
  /** Person responsible for content (§ 18 Abs. 2 MStV). */
  responsiblePerson: string | null;
  /** Register court and number, if registered (e.g. "Amtsgericht Berlin-Charlottenburg, HRB 123456"). */
  registerEntry: string | null;
}
