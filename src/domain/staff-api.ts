// What the staff API answers, written once: the session (modules/auth), the order list, the dashboard, an order's
// detail and every change to it (modules/admin), the jobs and an order's studio state (modules/production). The
// server declares its answers' types with them, so the compiler holds it to what the back office
// (src/web/pages/admin/) reads.
// Times are ISO strings in both places: the service turns every Date into one itself (toISOString), so what it
// returns is what JSON carries to the browser.
import type { PhotoWarning } from './order-views.js';
import type { OrderStatus, ProductionMode } from './order-state.js';
import type { AuditDetails, DiscardedPicture, PictureVariant } from './stored-json.js';

/** A staff account as the session answers name it (the auth module's StaffIdentity). */
export interface StaffUser {
  id: string;
  email: string;
  name: string | null;
}

/** POST /api/auth/login and GET /api/auth/session: who is signed in, and the token every change must carry. */
export interface SessionResponse {
  staff: StaffUser;
  csrfToken: string;
}

/** GET /api/admin/orders: one page of the orders placed, newest first. */
export interface OrderListResponse {
  orders: OrderListItem[];
  total: number;
  /** False when more orders match than the server counted (COUNT_LIMIT): "more than `total`". */
  totalExact: boolean;
  page: number;
  pageSize: number;
}

export interface OrderListItem {
  id: string;
  orderNumber: string | null;
  createdAt: string;
  email: string | null;
  package: string | null;
  status: string;
  paymentStatus: string;
  totalCents: number | null;
  activeResults: number;
  requiredResults: number;
}

/** GET /api/admin/dashboard. */
export interface DashboardResponse {
  counts: Record<OrderStatus, number>;
  waiting: {
    id: string;
    orderNumber: string | null;
    email: string | null;
    package: string | null;
    status: string;
    paidAt: string | null;
    dueAt: string | null;
    overdue: boolean;
    express: boolean;
    /** The customer deleted the photos while the order was being made: production stopped. */
    photosDeleted: boolean;
    /** Waiting on a redo the customer asked for (its own due time). */
    redo: boolean;
    /** A team member's order: the team order and its company. */
    team: { orderId: string; orderNumber: string; company: string | null } | null;
  }[];
  /** Paid team orders not fully delivered: seats, and how many members joined, submitted and got their pictures. */
  teams: { id: string; orderNumber: string; company: string | null; seats: number | null; paidAt: string | null; joined: number; submitted: number; delivered: number }[];
  revisions: { id: string; orderId: string; orderNumber: string | null; message: string; pictures: number; dueAt: string | null; overdue: boolean; createdAt: string }[];
  contactMessages: { id: string; name: string; email: string; message: string; createdAt: string }[];
}

/** What staff can make of a picture of the order (generated_images.status). */
export const RESULT_STATUSES = ['draft', 'active', 'archived', 'deleted'] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** A photo the customer uploaded: signed links to it, its thumbnail and a download. */
export interface AdminUpload {
  id: string;
  fileName: string;
  fileSize: number | null;
  width: number | null;
  height: number | null;
  thumbnailUrl: string;
  url: string;
  downloadUrl: string;
  /** The quality gate's verdict and warnings at upload. */
  quality: { verdict: 'ok' | 'warning' | 'unchecked'; warnings: PhotoWarning[] };
}

/** A picture made for the order: a draft, published (active), archived or deleted. */
export interface AdminResult {
  id: string;
  fileName: string;
  fileSize: number | null;
  width: number | null;
  height: number | null;
  status: ResultStatus;
  /** Empty for a deleted picture (its file is gone). */
  url: string;
  createdAt: string;
  publishedAt: string | null;
  /** The customer marked it as a favourite on their status page. */
  favourite: boolean;
  /** admin_upload (staff), studio (our pipeline) or external (a generator). */
  generationType: string;
  /** How a studio or generator draft was made, as stored; null for a staff upload. */
  variant: PictureVariant | null;
}

export interface AdminOrder {
  id: string;
  orderNumber: string | null;
  status: string;
  paymentStatus: string;
  language: string | null;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  /** The invoice's recipient when the customer gave one at checkout. */
  billingName: string | null;
  billingAddress: string | null;
  phone: string | null;
  gender: string | null;
  styleBase: string | null;
  package: string | null;
  refineLocation: string | null;
  refineOutfit: string | null;
  extras: string[];
  packageListCents: number | null;
  discountCents: number | null;
  packageCents: number | null;
  extrasCents: number | null;
  netCents: number | null;
  vatCents: number | null;
  totalCents: number | null;
  createdAt: string;
  orderedAt: string | null;
  paidAt: string | null;
  completedAt: string | null;
  photosDeletedAt: string | null;
  waiverAcceptedAt: string | null;
  waiverTextVersion: string | null;
}

export type AdminTeamInfo =
  | {
      kind: 'team';
      seats: number;
      vatId: string | null;
      vatTreatment: string;
      members: { id: string; orderNumber: string; email: string | null; status: string; paymentStatus: string; paidAt: string | null }[];
    }
  | { kind: 'member'; teamOrderId: string; teamOrderNumber: string; company: string | null }
  | null;

/** GET /api/admin/orders/:id, and the answer of every change to the order (status, results, redo answers). */
export interface AdminOrderDetail {
  order: AdminOrder;
  /** A team order's members, or a member's team (issue 17). */
  team: AdminTeamInfo;
  nextStatuses: OrderStatus[];
  uploads: AdminUpload[];
  results: AdminResult[];
  requiredResults: number;
  activeResults: number;
  history: { event: string; fromStatus: string | null; toStatus: string | null; actorType: string; at: string }[];
  revisions: { id: string; message: string; status: string; imageIds: string[]; dueAt: string | null; answer: string | null; createdAt: string; resolvedAt: string | null }[];
  /** staffEmail: the staff member's e-mail; for an entry of the system or a customer, its actor type; null when the staff member is gone. */
  audit: { action: string; staffEmail: string | null; at: string; details: AuditDetails | null }[];
}

/** POST /api/admin/orders/:id/results (201): the picture staff uploaded, stored as a draft. */
export interface UploadedResult {
  id: string;
  fileName: string;
  status: 'draft';
}

/** A job as staff see it (GET /api/admin/jobs/dead, and an order's studio state). */
export interface AdminJob {
  id: number;
  queue: string;
  status: 'pending' | 'running' | 'done' | 'failed' | 'dead';
  attempts: number;
  maxAttempts: number;
  /**
   * refused: studio drafts not made because they failed the output gate twice (no face, someone else's).
   * discarded: the generator's pictures the gate refused, each attempt with its reason; missing: pictures given up.
   */
  progress: { done?: number; total?: number; refused?: number; discarded?: DiscardedPicture[]; identityLimit?: number; missing?: number[] } | null;
  lastError: string | null;
  orderId: string | null;
  runAt: string;
  createdAt: string;
  finishedAt: string | null;
}

/** GET /api/admin/orders/:id/studio: who makes the order's pictures, and its jobs (the production module). */
export interface StudioState {
  productionMode: ProductionMode;
  generation: number;
  generatorConfigured: boolean;
  jobs: AdminJob[];
}

/** GET /api/admin/jobs/dead. */
export interface DeadJobsResponse {
  jobs: AdminJob[];
}
