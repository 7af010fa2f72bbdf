// The staff back office: order list, dashboard, order detail, status changes, results and their publishing,
// one group per file (order-lists.ts, order-detail.ts, status-changes.ts, results.ts, revisions.ts), put
// together here into the one service the routes use. What the parts share is in admin-context.ts.
// Every change is written to the audit log (who, what, when, which order).
import { createAdminContext, type AdminDeps } from './admin-context.js';
import { createOrderDetail } from './order-detail.js';
import { createOrderLists } from './order-lists.js';
import { createResults } from './results.js';
import { createRevisions } from './revisions.js';
import { createStatusChanges } from './status-changes.js';

export type { AdminDeps } from './admin-context.js';
export { COUNT_LIMIT, PAGE_SIZE } from './order-lists.js';
export { newestFirst } from './order-detail.js';

export function createAdminService(deps: AdminDeps) {
  const context = createAdminContext(deps);
  const { detail } = createOrderDetail(context);
  const lists = createOrderLists(context);
  const statusChanges = createStatusChanges(context, detail);
  const results = createResults(context, detail);
  const revisions = createRevisions(context, detail);

  return {
    detail,
    list: lists.list,
    dashboard: lists.dashboard,
    setStatus: statusChanges.setStatus,
    uploadResult: results.uploadResult,
    closeRevision: revisions.closeRevision,
    setResultStatus: results.setResultStatus,
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
