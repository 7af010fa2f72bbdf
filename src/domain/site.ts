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
  /** Steuernummer, for invoices when there is no VAT id. */
  taxNumber: string | null;
  /** Person responsible for content (§ 18 Abs. 2 MStV). */
  responsiblePerson: string | null;
  /** Register court and number, if registered (e.g. "Amtsgericht Berlin-Charlottenburg, HRB 123456"). */
  registerEntry: string | null;
  /** The operator's profiles (footer), and its shops in other languages (footer). */
  socialLinks: ExternalLink[];
  sisterSites: ExternalLink[];
  /** Who runs the external image generator, when one is configured (named in the privacy policy). */
  generatorName: string | null;
}

/** A link to one of the operator's profiles or sister sites, shown only when configured. */
export interface ExternalLink {
  /** The network (linkedin, instagram, …) or the sister site's language code (en, es, fr, …). */
  key: string;
  label: string;
  url: string;
}

export const SOCIAL_NETWORKS: Readonly<Record<string, string>> = {
  linkedin: 'LinkedIn',
  xing: 'XING',
  instagram: 'Instagram',
  facebook: 'Facebook',
  youtube: 'YouTube',
  tiktok: 'TikTok',
  x: 'X',
};

/** A third-party service that runs in the visitor's browser and therefore loads only after consent. */
export interface ThirdPartyService {
  /** Who runs it, as the consent banner and the privacy policy name it. */
  name: string;
  scriptUrl: string;
}

export interface ConsentServices {
  analytics: ThirdPartyService | null;
  chat: ThirdPartyService | null;
}

/** The kinds of service that need consent: asked about in the banner, named in the privacy policy. */
export const CONSENT_KINDS: readonly (keyof ConsentServices)[] = ['analytics', 'chat'];

export interface ExampleImage {
  src: string;
  width: number;
  height: number;
  /** The same image narrower, for phones (offered beside it in a srcset). */
  small?: { src: string; width: number };
}

/** One before/after pair for the home page and the first guide, from the examples manifest. */
export interface ExamplePair {
  id: string;
  before: ExampleImage;
  after: ExampleImage;
  /** The result's style and backdrop, shown (translated) under the pair. */
  style: string;
  location: string;
  /** Where the input portrait comes from and under which licence. */
  credit: string;
}
