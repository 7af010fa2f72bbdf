// What the lightbox shows and the decisions it offers: shared by the lightbox, its parts and the pages that open it.
export interface LightboxItem {
  key: string;
  src: string;
  alt: string;
  caption: string;
  downloadUrl?: string;
  /** Shown next to the caption, e.g. a result's status, so a decision made here is seen at once. */
  badge?: { tone: string; label: string };
}

/** A decision about the picture on show: a button in the lightbox and a key (KeyboardEvent.key values). */
export interface LightboxAction {
  /** Its data-testid; the confirmation's button gets `${id}-confirm`. */
  id: string;
  label: string;
  keys?: string[];
  /** The key as printed on the button. */
  keyLabel?: string;
  tone: 'primary' | 'secondary' | 'danger';
  /** Asked inside the lightbox first, for what cannot be undone. */
  confirm?: { question: string; label: string };
  run: () => void;
}
