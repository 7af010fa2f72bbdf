// Shapes of the staff API that the back office still keeps its own copy of: the studio's jobs
// (/api/admin/orders/:id/studio, /api/admin/jobs/dead), answered by the production module.
// The answers of the admin service (order list, dashboard, order detail) and of the session are declared once in
// domain/staff-api.ts.
import type { ProductionMode } from '../../../domain/order-state.js';
import type { DiscardedPicture } from '../../../domain/stored-json.js';

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

export interface StudioState {
  productionMode: ProductionMode;
  generation: number;
  generatorConfigured: boolean;
  jobs: AdminJob[];
}
