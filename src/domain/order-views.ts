// What the API answers about an order, shared by the server that builds it and the pages that show it.
import type { ExtraKey } from './catalog.js';

/** Warnings of the quality gate the customer sees on a photo (refusals never become an upload). */
export type PhotoWarning = 'faceTooSmall' | 'headTurned' | 'headTilted' | 'blurred' | 'tooDark' | 'tooBright' | 'lowResolution' | 'otherPeople';

/** A customer's uploaded photo in the wizard: signed links to the photo and its thumbnail, and the gate's verdict. */
export interface UploadView {
  id: string;
  fileName: string;
  width: number;
  height: number;
  url: string;
  thumbnailUrl: string;
  /** 'unchecked' when the check itself failed: the photo is kept and staff look at it. */
  quality: { verdict: 'ok' | 'warning' | 'unchecked'; warnings: PhotoWarning[] };
}

/**
 * A photo received while the shop was busy: it is stored as sent and a worker checks it soon after; the wizard
 * asks for its state (GET /api/orders/:id/uploads/:uploadId) until the photo is accepted or refused.
 */
export interface PhotoCheckView {
  state: 'checking';
  id: string;
  fileName: string;
}

/** Where one photo stands: still being checked, accepted (the upload), or refused with its reason (errors.<code>). */
export type PhotoState =
  | PhotoCheckView
  | { state: 'accepted'; upload: UploadView }
  | { state: 'refused'; id: string; fileName: string; code: string; details?: Record<string, unknown> };

/** The answer to an upload: the checked photo at once, or (a busy shop) a photo whose check runs in a worker. */
export type UploadAnswer = UploadView | PhotoCheckView;

/** An order as tracking and the status page show it. */
export interface CustomerOrderView {
  orderId: string;
  orderNumber: string;
  status: string;
  paymentStatus: string;
  email: string | null;
  language: string;
  package: string | null;
  style: string | null;
  gender: string | null;
  location: string | null;
  outfit: string | null;
  extras: ExtraKey[];
  features: { hd: boolean; extraVariants: boolean; expressDelivery: boolean; commercialLicense: boolean };
  totalCents: number | null;
  createdAt: string;
  paidAt: string | null;
  completedAt: string | null;
  deliveryHours: number | null;
  dueAt: string | null;
  /** The photos were promised by dueAt (the first delivery), which has passed: the page owns up to it. */
  overdue: boolean;
  resultCount: number | null;
  uploads: { id: string; fileName: string; thumbnailUrl: string }[];
  /** `format`: the output format (4:5, 1:1, 35 × 45 mm) when known; `favourite`: the customer marked it. */
  /** `redo`: named in the open redo request (made again, awaiting staff review). */
  results: { id: string; n: number; fileName: string; format: 'portrait' | 'square' | 'application' | null; favourite: boolean; redo: boolean; url: string; downloadUrl: string }[];
  zipUrl: string | null;
  /** One ZIP per output format, when the pictures come in more than one. */
  formatZips: { format: 'portrait' | 'square' | 'application'; count: number; url: string }[];
  history: { event: string; at: string; fromStatus: string | null; toStatus: string | null }[];
  photosDeleteAfter: string | null;
  photosDeletedAt: string | null;
  /**
   * Redo before accepting: until when it can be asked for, the package's budget of pictures and what is left,
   * the open request (with its own due time) and staff's answers to earlier ones.
   */
  revision: {
    allowedUntil: string | null;
    open: boolean;
    budget: number;
    remaining: number;
    current: { createdAt: string; dueAt: string | null; overdue: boolean; pictures: number; message: string } | null;
    answers: { at: string; message: string; pictures: number }[];
  };
  contact: { email: string; phone: string | null };
  /** The invoice and any cancellation invoices, each with its download link. */
  invoices: { id: string; number: string; kind: 'invoice' | 'cancellation'; issuedAt: string; grossCents: number; url: string }[];
}
