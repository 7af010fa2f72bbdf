// The shop hostile-input.test.ts attacks: drafts, a completed order with its links, an order to withdraw from, a
// paid team, a staff account and a mail, so each hostile value meets a route that would otherwise act.
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { TEAM_PHOTO_CONSENT_VERSION } from '../../../domain/team.js';
import { queryRows } from '../../db/client.js';
import { generatedImages } from '../../db/schema.js';
import { statusToken } from '../../modules/orders/order-tokens.js';
import { addResults, createDraft, payOrder, placeOrder, setOrder, variantWith, type SeededDraft, type SeededOrder } from '../seed.js';

export interface Seed {
  checkoutDraft: SeededDraft;
  draft: SeededDraft;
  deletable: SeededDraft & { statusToken: string };
  completed: SeededOrder & { statusToken: string; imageId: string; invoiceId: string; download: URLSearchParams; zip: URLSearchParams; file: { key: string; query: URLSearchParams } };
  withdrawable: SeededOrder & { sessionId: string };
  team: { orderId: string; statusToken: string; joinToken: string; linkId: string; inviteId: string; memberId: string; memberDraftToken: string; removableId: string; zip: URLSearchParams };
  staff: { email: string; password: string };
  mailId: string;
}

export const STAFF = { email: 'staff-hostile@example.de', password: 'ein-langes-test-passwort' };
export const TEAM_ORDER = {
  language: 'de',
  email: 'einkauf@example.de',
  package: 'pro',
  seats: 4,
  style: 'professional',
  location: 'studio',
  outfit: null,
  companyName: 'Muster GmbH',
  companyAddress: 'Hauptstraße 1\n10115 Berlin',
  vatId: 'DE136695976',
  businessConfirmed: true,
};

export async function seedShop(app: FastifyInstance, secret: string): Promise<Seed> {
  const [checkoutDraft, draft, deletable] = [await createDraft(app, { photos: 3 }), await createDraft(app, { photos: 1 }), await createDraft(app, { photos: 1 })];
  const completedOrder = await placeOrder(app);
  await payOrder(app, completedOrder);
  const [imageId] = await addResults(app, completedOrder.orderId, ['active']);
  await setOrder(app, completedOrder.orderId, { status: 'completed', completedAt: new Date() });
  const token = statusToken(secret, completedOrder.orderId, app.now());
  const view = (await app.inject({ method: 'GET', url: `/api/orders/${completedOrder.orderId}/status`, headers: { 'x-status-token': token } })).json();
  const download = new URL(view.results[0].downloadUrl, 'http://shop.test');
  const zip = new URL(view.zipUrl, 'http://shop.test');
  const file = new URL(view.results[0].url, 'http://shop.test');
  const withdrawableOrder = await placeOrder(app);
  const [session] = await queryRows<{ id: string }>(app.db.db, sql`select provider_session_id as id from orders where id = ${withdrawableOrder.orderId}`);
  await app.auth.createStaff({ ...STAFF, name: 'Test' });
  // A paid team with its link, an invitation, a member who has not sent photos yet, one to remove, and a published picture.
  const placedTeam = (await app.inject({ method: 'POST', url: '/api/teams', payload: TEAM_ORDER })).json();
  await payOrder(app, { orderId: placedTeam.orderId, orderNumber: '', draftToken: '', email: TEAM_ORDER.email });
  const teamToken = statusToken(secret, placedTeam.orderId, app.now());
  const teamView = (await app.inject({ method: 'POST', url: `/api/teams/${placedTeam.orderId}/invites`, headers: { 'x-status-token': teamToken }, payload: { emails: ['eingeladen@example.de'] } })).json();
  const joinToken = new URL(teamView.joinUrl).pathname.split('/').pop()!;
  const joinAs = async (email: string) =>
    (await app.inject({ method: 'POST', url: `/api/team-join/${joinToken}`, payload: { email, language: 'de', photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION } })).json();
  const [member, removable, delivered] = [await joinAs('mitglied@example.de'), await joinAs('entfernen@example.de'), await joinAs('fertig@example.de')];
  const [picture] = await addResults(app, delivered.orderId, ['active']);
  await app.db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, picture!));
  const withPicture = (await app.inject({ method: 'GET', url: `/api/teams/${placedTeam.orderId}`, headers: { 'x-status-token': teamToken } })).json();
  const mails = (await app.inject({ method: 'GET', url: '/api/dev/outbox' })).json().mails as { id: string }[];
  return {
    checkoutDraft,
    draft,
    deletable: { ...deletable, statusToken: statusToken(secret, deletable.orderId, app.now()) },
    completed: {
      ...completedOrder,
      statusToken: token,
      imageId: imageId!,
      invoiceId: view.invoices[0].id,
      download: download.searchParams,
      zip: zip.searchParams,
      file: { key: decodeURIComponent(file.pathname.replace(/^\/files\//, '')), query: file.searchParams },
    },
    withdrawable: { ...withdrawableOrder, sessionId: session!.id },
    team: {
      orderId: placedTeam.orderId,
      statusToken: teamToken,
      joinToken,
      linkId: joinToken.split('.')[0]!,
      inviteId: teamView.members.find((m: { progress: string }) => m.progress === 'invited').inviteId,
      memberId: member.orderId,
      memberDraftToken: member.draftToken,
      removableId: removable.orderId,
      zip: new URL(withPicture.zips[0].url, 'http://shop.test').searchParams,
    },
    staff: STAFF,
    mailId: mails[0]!.id,
  };
}
