// One valid request per public route of the shop (hostile-input.test.ts): every route the app registers needs one.
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { PHOTO_CONSENT_VERSION, WAIVER_TEXT_VERSION } from '../../../domain/order-selection.js';
import { TEAM_PHOTO_CONSENT_VERSION } from '../../../domain/team.js';
import { TEXT_FILES_PREFIX, textFilesFor } from '../../../web/entry-server.js';
import { revisionRequests, teamInvites, teamLinks } from '../../db/schema.js';
import { BASIC_SELECTION, setOrder } from '../seed.js';
import { TEAM_ORDER, type Seed } from './shop-seed.js';

export interface RouteTemplate {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  /** Rate-limit keys (SQL LIKE patterns) cleared before each case, so a limit does not hide the schema's answer. */
  resetLimits?: string;
  /** Tables a refused request may still write, and why. */
  mayWrite?: string[];
  /** Puts the seeded data back before each case, so each value meets the state the route acts on. */
  before?: () => Promise<void>;
}

/** One valid request per public route; each case puts one hostile value in place of one of its values. */
export function templates(seed: Seed, app: FastifyInstance): Record<string, RouteTemplate[]> {
  const { draft, checkoutDraft, deletable, completed, withdrawable, team } = seed;
  const teamHeaders = { 'x-status-token': team.statusToken };
  // The seeded join link works again before each case (a case may have made a new one, which revokes it).
  const restoreLink = async () => {
    await app.db.db.update(teamLinks).set({ revokedAt: new Date() }).where(eq(teamLinks.teamOrderId, team.orderId));
    await app.db.db.update(teamLinks).set({ revokedAt: null }).where(eq(teamLinks.id, team.linkId));
  };
  const draftHeaders = { 'x-draft-token': draft.draftToken };
  const statusHeaders = { 'x-status-token': completed.statusToken };
  return {
    'GET /api/health': [{}],
    'GET /api/catalog': [{}],
    'GET /api/site': [{}],
    'POST /api/orders': [{ body: { language: 'de', selection: BASIC_SELECTION, photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION } }],
    'GET /api/orders/:id/draft': [{ params: { id: draft.orderId }, headers: draftHeaders }],
    'PUT /api/orders/:id/selection': [{ params: { id: draft.orderId }, headers: draftHeaders, body: { language: 'de', selection: BASIC_SELECTION } }],
    'POST /api/orders/:id/uploads': [{ params: { id: draft.orderId }, headers: draftHeaders }],
    'DELETE /api/orders/:id/uploads/:uploadId': [{ params: { id: draft.orderId, uploadId: draft.uploadIds[0]! }, headers: draftHeaders }],
    'GET /api/orders/:id/uploads/:uploadId': [{ params: { id: draft.orderId, uploadId: draft.uploadIds[0]! }, headers: draftHeaders }],
    'POST /api/orders/:id/checkout': [
      {
        params: { id: checkoutDraft.orderId },
        headers: { 'x-draft-token': checkoutDraft.draftToken },
        body: {
          language: 'de',
          selection: BASIC_SELECTION,
          email: 'kundin@example.de',
          waiverAccepted: true,
          waiverTextVersion: WAIVER_TEXT_VERSION,
          billingName: 'Erika Muster',
          billingAddress: 'Weg 1\n10115 Berlin',
        },
      },
    ],
    'GET /api/orders/:id/confirmation': [{ params: { id: withdrawable.orderId }, query: { session_id: withdrawable.sessionId, token: 'kein-token' } }],
    'POST /api/orders/:id/confirmation/refresh': [{ params: { id: withdrawable.orderId }, query: { session_id: withdrawable.sessionId, token: 'kein-token' } }],
    'POST /api/payments/webhook': [{ headers: { 'stripe-signature': 't=1,v1=00' }, body: { id: 'evt_1', type: 'checkout.session.completed' } }],
    'GET /sandbox/checkout.css': [{}],
    'GET /sandbox/checkout/:id': [{ params: { id: withdrawable.sessionId }, query: { lang: 'en' } }],
    'POST /sandbox/checkout/:id/:outcome': [{ params: { id: withdrawable.sessionId, outcome: 'cancel' } }],
    'POST /api/tracking': [{ body: { orderId: completed.orderNumber, email: completed.email }, resetLimits: 'tracking:%' }],
    'GET /api/orders/:id/invoices/:invoiceId': [{ params: { id: completed.orderId, invoiceId: completed.invoiceId }, query: { token: completed.statusToken } }],
    'GET /api/orders/:id/status': [{ params: { id: completed.orderId }, query: { token: completed.statusToken } }],
    // Completed again before each case: a revision accepted by one case would make every later one a 409.
    'POST /api/orders/:id/revision': [
      {
        params: { id: completed.orderId },
        headers: statusHeaders,
        body: { imageIds: [completed.imageId], message: 'Bitte etwas heller machen.' },
        // And without its open redo (one at a time) or a used-up budget.
        before: async () => {
          await app.db.db.delete(revisionRequests).where(eq(revisionRequests.orderId, completed.orderId));
          await setOrder(app, completed.orderId, { status: 'completed', completedAt: new Date() });
        },
      },
    ],
    'POST /api/orders/:id/results/:imageId/favourite': [
      { params: { id: completed.orderId, imageId: completed.imageId }, headers: statusHeaders, body: { favourite: true } },
    ],
    'POST /api/orders/:id/delete-photos': [{ params: { id: deletable.orderId }, headers: { 'x-status-token': deletable.statusToken }, body: { confirm: true } }],
    'GET /api/orders/:id/results/:imageId/download': [
      { params: { id: completed.orderId, imageId: completed.imageId }, query: Object.fromEntries(completed.download) },
    ],
    'GET /api/orders/:id/results.zip': [{ params: { id: completed.orderId }, query: Object.fromEntries(completed.zip) }],
    'POST /api/teams': [{ body: TEAM_ORDER }],
    'GET /api/teams/:id': [{ params: { id: team.orderId }, headers: teamHeaders }],
    'POST /api/teams/:id/invites': [{ params: { id: team.orderId }, headers: teamHeaders, body: { emails: ['kollegin@example.de'] }, resetLimits: 'team-invites:%' }],
    'POST /api/teams/:id/invites/:inviteId/remind': [
      {
        params: { id: team.orderId, inviteId: team.inviteId },
        headers: teamHeaders,
        before: async () => void (await app.db.db.update(teamInvites).set({ remindedAt: null }).where(eq(teamInvites.id, team.inviteId))),
      },
    ],
    // Paid already: the valid request is refused (alreadyPaid); the hostile ones must be refused as cleanly.
    'POST /api/teams/:id/pay': [{ params: { id: team.orderId }, headers: teamHeaders, resetLimits: 'team-pay:%' }],
    'POST /api/teams/:id/link': [{ params: { id: team.orderId }, headers: teamHeaders, before: restoreLink }],
    'POST /api/teams/:id/members/:memberId/remove': [
      {
        params: { id: team.orderId, memberId: team.removableId },
        headers: teamHeaders,
        before: () => setOrder(app, team.removableId, { status: 'created', cancelledAt: null, photosDeleteAfter: null }),
      },
    ],
    'GET /api/teams/:id/results.zip': [{ params: { id: team.orderId }, query: Object.fromEntries(team.zip) }],
    'GET /api/team-join/:token': [{ params: { token: team.joinToken }, before: restoreLink }],
    'POST /api/team-join/:token': [
      { params: { token: team.joinToken }, body: { email: 'neu@example.de', language: 'de', photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION }, before: restoreLink, resetLimits: 'drafts:%' },
    ],
    'POST /api/team-members/:id/submit': [{ params: { id: team.memberId }, headers: { 'x-draft-token': team.memberDraftToken }, body: { gender: 'female' } }],
    'POST /api/contact': [{ body: { name: 'Max Muster', email: 'max@example.de', message: 'Eine Frage zu meiner Bestellung.', language: 'de' } }],
    'POST /api/metrics': [
      { body: { kind: 'page_view', path: '/kontakt', language: 'de' } },
      { body: { kind: 'event', name: 'package_selected', detail: 'pro' } },
    ],
    'GET /robots.txt': [{}],
    'GET /manifest.webmanifest': [{}],
    // A page's texts (web/text-files.ts).
    'GET /i18n/:file': [{ params: { file: textFilesFor('en', ['team']).pages.team!.slice(TEXT_FILES_PREFIX.length) } }],
    'GET /sitemap.xml': [{}],
    // A wrong password for an existing account is counted on the account (staff_users.failed_logins).
    'POST /api/auth/login': [{ body: { email: seed.staff.email, password: 'ein-falsches-passwort' }, resetLimits: 'login:%', mayWrite: ['staff_users'] }],
    'GET /api/auth/session': [{}],
    'POST /api/auth/logout': [{}],
    'POST /api/withdrawals': [{ body: { name: 'Max Muster', reference: withdrawable.orderNumber, email: withdrawable.email, language: 'de' } }],
    // The same form sent without script (answered with the page).
    'POST /widerruf': [{ body: { name: 'Max Muster', reference: withdrawable.orderNumber, email: withdrawable.email, language: 'de' } }],
    'POST /api/generator/webhook': [{ body: { id: 'prediction-1' } }],
    // A Cog container's file upload (upload-address.ts); this shop runs no Cog container, so every value is refused.
    'PUT /api/generator/uploads/:token/:filename': [{ params: { token: 'upload-token', filename: 'out_0.png' }, headers: { 'x-prediction-id': 'a'.repeat(26) } }],
    'GET /files/*': [{ params: { '*': completed.file.key }, query: Object.fromEntries(completed.file.query) }],
    'GET /dev/outbox': [{}],
    'GET /dev/outbox/:id.txt': [{ params: { id: seed.mailId } }],
    'GET /dev/outbox/:id': [{ params: { id: seed.mailId } }],
    'GET /api/dev/outbox': [{ query: { to: completed.email } }],
    'GET /*': [
      { params: { '*': 'kontakt' }, query: { lang: 'en' } },
      { params: { '*': 'tracking' }, query: { order_id: completed.orderNumber, email: completed.email } },
      { params: { '*': `order-status/${completed.orderId}` }, query: { token: completed.statusToken } },
      { params: { '*': 'widerruf' }, query: { order: completed.orderNumber } },
    ],
  };
}
