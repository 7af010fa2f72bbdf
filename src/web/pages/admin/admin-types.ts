// Shapes of the staff API (/api/auth/*, /api/admin/*) as the back office reads them.
import type { ProductionMode } from '../../../domain/order-state.js';

export interface StaffUser {
  id: string;
  email: string;
  name: string | null;
}

export interface SessionResponse {
  staff: StaffUser;
  csrfToken: string;
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

export interface OrderListResponse {
  orders: OrderListItem[];
  total: number;
  /** False when more orders match than the server counted (COUNT_LIMIT): "more than `total`". */
  totalExact: boolean;
  page: number;
  pageSize: number;
}

export interface DashboardResponse {
  counts: Record<'created' | 'paid' | 'in_progress' | 'completed' | 'cancelled', number>;
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

export type ResultStatus = 'draft' | 'active' | 'archived' | 'deleted';

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
  quality: { verdict: 'ok' | 'warning' | 'unchecked'; warnings: string[] };
}

export interface AdminResult {
  id: string;
  fileName: string;
  fileSize: number | null;
  width: number | null;
  height: number | null;
  status: ResultStatus;
  url: string;
  createdAt: string;
  publishedAt: string | null;
  /** The customer marked it as a favourite on their status page. */
  favourite: boolean;
  /** admin_upload (staff), studio (our pipeline) or external (a generator). */
  generationType: string;
  /**
   * For studio drafts: format, backdrop, style, the requested outfit, the photo and its slot. For the
   * generator's drafts: the format, the picture's number, what it wears and where, and its identity check.
   */
  variant: {
    format?: string;
    backdrop?: { kind: string; variant: number };
    requestedOutfit?: string | null;
    index?: number;
    generation?: number;
    generator?: string;
    outfit?: { description: string };
    background?: { description: string };
    identity?: { distance: number; limit: number } | null;
    /** A studio draft made again without skin smoothing and style, because the face was not recognised otherwise. */
    gentle?: boolean;
    /** A studio draft made for a customer's redo: what the reason changed (redo-reason.ts); empty: nothing read. */
    redo?: string[];
    /** The studio's framing: 1 wider, 2 tighter than the format's own (0 or missing). */
    variation?: number;
  } | null;
}

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
  progress: { done?: number; total?: number; refused?: number; discarded?: { picture: number; attempt: number; reason: string; distance?: number }[]; identityLimit?: number; missing?: number[] } | null;
  lastError: string | null;
  orderId: string | null;
  runAt: string;
  createdAt: string;
  finishedAt: string | null;
}

export interface StudioState {
  productionMode: ProductionMode;
  generation: number;
  generatorConfigured: boolean;
  jobs: AdminJob[];
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

export interface AdminOrderDetail {
  order: AdminOrder;
  /** A team order's members, or a member's team (issue 17). */
  team: AdminTeamInfo;
  nextStatuses: string[];
  uploads: AdminUpload[];
  results: AdminResult[];
  requiredResults: number;
  activeResults: number;
  history: { event: string; fromStatus: string | null; toStatus: string | null; actorType: string; at: string }[];
  revisions: { id: string; message: string; status: string; imageIds: string[]; dueAt: string | null; answer: string | null; createdAt: string; resolvedAt: string | null }[];
  audit: { action: string; staffEmail: string | null; at: string; details: unknown }[];
}
