// Team orders on both databases: the company's checkout (VAT ID format, reverse charge), the join link with its
// seats counted under parallel acceptances, the member's own photos out of the buyer's reach, and the team ZIP.
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { describe, expect, test } from 'vitest';
import { PHOTO_CONSENT_VERSION } from '../../../domain/order-selection.js';
import { TEAM_PHOTO_CONSENT_VERSION } from '../../../domain/team.js';
import { auditLog, generatedImages, jobs, orders, outgoingMail, photoChecks } from '../../db/schema.js';
import { buildTestApp } from '../../test/app.js';
import { testDatabases } from '../../test/databases.js';
import { suiteApp } from '../../test/suite-app.js';
import { addResults, deliverEvent, payOrder, setOrder, variantWith } from '../../test/seed.js';
import type { SandboxPaymentProvider } from '../../payment-providers/sandbox-provider.js';
import { signInStaff } from '../../test/staff.js';
import { multipart, portraitJpeg } from '../../../testing/images.js';
import { statusToken } from '../orders/order-tokens.js';
import { PROFILE_PICTURE_PX } from './team-service.js';

const COMPANY = { companyName: 'Muster Consulting GmbH', companyAddress: 'Hauptstraße 1\n10115 Berlin' };
const ORDER = { language: 'de', email: 'einkauf@muster.example', package: 'pro', seats: 5, style: 'professional', location: 'studio', outfit: null, ...COMPANY, businessConfirmed: true };

function zipEntries(buffer: Buffer): Promise<{ name: string; data: Buffer }[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const entries: { name: string; data: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe.each(testDatabases())('team orders on $name', (testDb) => {
  const t = suiteApp(testDb, { CAMPAIGN_PERCENT: '0', DEFAULT_PRODUCTION_MODE: 'studio', SITE_VAT_ID: 'DE136695976' });

  const buyer = (teamId: string) => ({ 'x-status-token': statusToken(t.config.appSecret, teamId, t.app.now()) });
  const order = (payload: object) => t.app.inject({ method: 'POST', url: '/api/teams', payload, remoteAddress: '10.70.0.1' });

  async function paidTeam(overrides: object = {}) {
    const placed = await order({ ...ORDER, ...overrides });
    expect(placed.statusCode, placed.body).toBe(201);
    const { orderId } = placed.json();
    await payOrder(t.app, { orderId, orderNumber: '', draftToken: '', email: ORDER.email });
    const view = (await t.app.inject({ method: 'GET', url: `/api/teams/${orderId}`, headers: buyer(orderId) })).json();
    return { orderId, view, token: new URL(view.joinUrl).pathname.split('/').pop()! };
  }

  const join = (token: string, email: string, remoteAddress = '10.70.1.1') =>
    t.app.inject({ method: 'POST', url: `/api/team-join/${token}`, payload: { email, language: 'de', photoConsent: true, photoConsentVersion: TEAM_PHOTO_CONSENT_VERSION }, remoteAddress });

  async function upload(memberId: string, draftToken: string, n = 3) {
    for (let i = 0; i < n; i++) {
      const body = multipart({ buffer: await portraitJpeg(), fileName: `selfie-${i + 1}.jpg`, contentType: 'image/jpeg' });
      const response = await t.app.inject({ method: 'POST', url: `/api/orders/${memberId}/uploads`, headers: { 'content-type': body.contentType, 'x-draft-token': draftToken }, payload: body.body });
      expect(response.statusCode, response.body).toBe(201);
    }
  }

  test('a German company pays seats × the package with VAT; an Austrian one with a valid-format VAT ID pays the net only (reverse charge)', async () => {
    const invalid = await order({ ...ORDER, vatId: 'ATU1234' });
    expect([invalid.statusCode, invalid.json().error.code]).toEqual([422, 'vatIdInvalid']);
    const consumer = await order({ ...ORDER, businessConfirmed: false });
    expect(consumer.json().error.fields.businessConfirmed).toBe('businessRequired');
    const oneSeat = await order({ ...ORDER, seats: 1 });
    expect(oneSeat.json().error.fields.seats).toBe('seatsInvalid');
    expect((await order({ ...ORDER, companyName: '' })).json().error.fields.companyName).toBe('companyRequired');

    const domestic = await paidTeam({ vatId: 'DE 136 695 976' });
    // Pro costs 34,90 € per person: 5 seats 174,50 € with 19 % VAT included.
    expect(domestic.view).toMatchObject({ seats: 5, seatsUsed: 0, vatTreatment: 'standard', totalCents: 17450, vatCents: 2786, netCents: 14664, company: { vatId: 'DE136695976' } });
    // Reverse charge needs the shop's own VAT ID on the invoice: a shop without one refuses it, clearly.
    const withoutVatId = await buildTestApp(t.db, { CAMPAIGN_PERCENT: '0' });
    try {
      const refused = await withoutVatId.app.inject({ method: 'POST', url: '/api/teams', payload: { ...ORDER, vatId: 'ATU13585627' } });
      expect([refused.statusCode, refused.json().error.code]).toEqual([422, 'reverseChargeUnavailable']);
    } finally {
      await withoutVatId.close();
    }
    const eu = await paidTeam({ vatId: 'ATU13585627', companyAddress: 'Ringstraße 1\n1010 Wien\nÖsterreich' });
    expect(eu.view).toMatchObject({ vatTreatment: 'reverse_charge', totalCents: 14664, vatCents: 0, netCents: 14664 });
    // The team order makes no pictures of its own; the buyer gets the join link by mail.
    expect(await t.db.db.select().from(jobs).where(eq(jobs.orderId, domestic.orderId))).toEqual([]);
    const paidMail = (await t.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, domestic.orderId), eq(outgoingMail.template, 'team-paid'))))[0];
    expect(paidMail?.text).toContain(domestic.view.joinUrl.replace('http://localhost:3000', ''));
    // One invoice for the team, reachable from the team page; the buyer's and members' actions go to one audit log.
    expect(domestic.view.invoices).toEqual([expect.objectContaining({ kind: 'invoice', grossCents: 17450 })]);
    const pdf = await t.app.inject({ method: 'GET', url: domestic.view.invoices[0].url });
    expect([pdf.statusCode, pdf.headers['content-type']]).toEqual([200, 'application/pdf']);
    const ordered = (await t.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, domestic.orderId), eq(outgoingMail.template, 'team-ordered'))))[0];
    expect(ordered?.text).toContain('Ein Widerrufsrecht besteht nicht');
    // The buyer's mails state the amounts as the invoice does: gross with 19 % VAT, or net under reverse charge.
    expect(ordered?.text).toMatch(/5 Plätze × Pro Paket: 174,50\s€\nNettobetrag: 146,64\s€\nUmsatzsteuer 19 %: 27,86\s€\nGesamtbetrag: 174,50\s€/);
    const euPaid = (await t.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, eu.orderId), eq(outgoingMail.template, 'team-paid'))))[0];
    expect(euPaid?.text).toMatch(/Nettobetrag: 146,64\s€\nUmsatzsteuer: Steuerschuldnerschaft des Leistungsempfängers \(Reverse Charge\): 0,00\s€\nBezahlt: 146,64\s€/);
  });

  test('a buyer who left the payment page pays later from the team page: the open session again, after its expiry a new one for the same price', async () => {
    const placed = await order({ ...ORDER, seats: 3 });
    const { orderId, url } = placed.json();
    const pay = () => t.app.inject({ method: 'POST', url: `/api/teams/${orderId}/pay`, headers: buyer(orderId) });
    expect((await t.app.inject({ method: 'POST', url: `/api/teams/${orderId}/pay` })).statusCode).toBe(404);
    const again = await pay();
    expect([again.statusCode, again.json().url]).toEqual([200, url]);

    const [first] = await t.db.db.select().from(orders).where(eq(orders.id, orderId));
    const cancelled = await (t.app.payments as SandboxPaymentProvider).simulate(first!.providerSessionId!, 'cancel');
    for (const event of cancelled!.events) await deliverEvent(t.app, event);
    const reopened = await pay();
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(reopened.json().url).not.toBe(url);
    const [second] = await t.db.db.select().from(orders).where(eq(orders.id, orderId));
    expect(second).toMatchObject({ paymentStatus: 'pending', totalCents: 3 * 3490, providerSessionTotalCents: 3 * 3490 });
    expect(second!.providerSessionId).not.toBe(first!.providerSessionId);

    await payOrder(t.app, { orderId, orderNumber: '', draftToken: '', email: ORDER.email });
    const view = (await t.app.inject({ method: 'GET', url: `/api/teams/${orderId}`, headers: buyer(orderId) })).json();
    expect([view.paymentStatus, view.seats, view.joinUrl]).toEqual(['paid', 3, expect.stringContaining('/team/join/')]);
    const twice = await pay();
    expect([twice.statusCode, twice.json().error.code]).toEqual([409, 'alreadyPaid']);
  });

  test('staff pay back unused seats: their share of the price, taken from the team at once, given back if the refund fails; seats in use stay', async () => {
    const team = await paidTeam({ seats: 5 });
    await join(team.token, 'eins@muster.example');
    await join(team.token, 'zwei@muster.example');
    const staff = await signInStaff(t.app, '10.70.9.2');
    const refund = (payload: object) => staff.request('POST', `/api/admin/orders/${team.orderId}/refunds`, payload);
    const seatsOf = async () => (await t.app.inject({ method: 'GET', url: `/api/teams/${team.orderId}`, headers: buyer(team.orderId) })).json().seats;

    // Two joined: three seats are free, not four.
    const tooMany = await refund({ seats: 4 });
    expect([tooMany.statusCode, tooMany.json().error.code]).toEqual([422, 'seatsInUse']);
    const failing = (await refund({ seats: 1, reason: 'eine Person weniger' })).json();
    // 174,50 € for five seats: one is 34,90 €, and nobody can join on it while the refund stands.
    expect(failing).toMatchObject({ amountCents: 3490, seats: 1, status: 'requested' });
    expect(await seatsOf()).toBe(4);
    await staff.request('POST', `/api/admin/orders/${team.orderId}/refunds/${failing.id}/sandbox/failed`);
    expect(await seatsOf()).toBe(5);

    const two = (await refund({ seats: 2 })).json();
    expect(two).toMatchObject({ amountCents: 6980, seats: 2 });
    await staff.request('POST', `/api/admin/orders/${team.orderId}/refunds/${two.id}/sandbox/succeeded`);
    const view = (await t.app.inject({ method: 'GET', url: `/api/teams/${team.orderId}`, headers: buyer(team.orderId) })).json();
    expect(view).toMatchObject({ seats: 3, seatsUsed: 2, paymentStatus: 'paid' });
    expect(view.invoices.map((i: { kind: string; grossCents: number }) => [i.kind, i.grossCents])).toEqual(expect.arrayContaining([['cancellation', -6980]]));
    // A third person joins on the last seat; a fourth is refused: the seats given back are gone.
    expect((await join(team.token, 'drei@muster.example')).statusCode).toBe(201);
    expect((await join(team.token, 'vier@muster.example')).json().error.code).toBe('teamFull');
  });

  test('parallel acceptances never take more seats than were bought; a sixth is refused, so is a revoked link', async () => {
    const team = await paidTeam();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => join(team.token, `person${i}@muster.example`, `10.70.2.${i}`)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 201, 201, 409, 409, 409]);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'teamFull')).toBe(true);
    const [row] = await t.db.db.select({ used: orders.id }).from(orders).where(eq(orders.teamOrderId, team.orderId));
    expect(row).toBeDefined();
    expect((await t.db.db.select().from(orders).where(eq(orders.teamOrderId, team.orderId))).length).toBe(5);
    expect((await join(team.token, 'sechste@muster.example')).json().error.code).toBe('teamFull');
    // The same person again gets their own draft back, not a second seat.
    const joined = results.find((r) => r.statusCode === 201)!.json();
    const member = (await t.db.db.select().from(orders).where(eq(orders.id, joined.orderId)))[0]!;
    const again = await join(team.token, member.email!.toUpperCase());
    expect(again.json().orderId).toBe(joined.orderId);
    // A day later their unsent photos were deleted (as every unpaid draft's): joining again gives a fresh draft on the same seat.
    const other = results.filter((r) => r.statusCode === 201)[1]!.json();
    await t.db.db.update(orders).set({ photosDeletedAt: new Date() }).where(eq(orders.id, other.orderId));
    const rejoined = await join(team.token, (await t.db.db.select().from(orders).where(eq(orders.id, other.orderId)))[0]!.email!);
    expect(rejoined.statusCode).toBe(201);
    expect(rejoined.json().orderId).not.toBe(other.orderId);
    expect((await t.db.db.select().from(orders).where(eq(orders.id, other.orderId)))[0]!.status).toBe('cancelled');

    // The buyer frees a seat of someone who has not sent photos, and makes a new link: the old one is dead.
    const removed = await t.app.inject({ method: 'POST', url: `/api/teams/${team.orderId}/members/${joined.orderId}/remove`, headers: buyer(team.orderId) });
    expect(removed.json().seatsUsed).toBe(4);
    const renewed = (await t.app.inject({ method: 'POST', url: `/api/teams/${team.orderId}/link`, headers: buyer(team.orderId) })).json();
    const fresh = new URL(renewed.joinUrl).pathname.split('/').pop()!;
    expect(fresh).not.toBe(team.token);
    expect((await join(team.token, 'neu@muster.example')).statusCode).toBe(410);
    expect((await join(fresh, 'neu@muster.example')).statusCode).toBe(201);
    expect((await join(fresh, 'noch-einer@muster.example')).json().error.code).toBe('teamFull');
    const logged = await t.db.db.select().from(auditLog).where(eq(auditLog.orderId, team.orderId));
    expect(logged.map((a) => a.action).sort()).toEqual([...Array(7).fill('team.member.join'), 'team.link.renew', 'team.member.remove'].sort());
    // A forged token is no link; a stranger's token cannot open the team page.
    expect((await join(`${randomUUID()}.${'x'.repeat(32)}`, 'x@muster.example')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/teams/${team.orderId}`, headers: { 'x-status-token': 'nope' } })).statusCode).toBe(404);
  });

  test('a member consents to the team text (not the consumer one); their unsent photos wait 30 days, not 24 hours, then go and free the seat', async () => {
    const team = await paidTeam({ seats: 2 });
    const consumerText = await t.app.inject({
      method: 'POST',
      url: `/api/team-join/${team.token}`,
      payload: { email: 'carla@muster.example', language: 'de', photoConsent: true, photoConsentVersion: PHOTO_CONSENT_VERSION },
      remoteAddress: '10.70.2.1',
    });
    expect([consumerText.statusCode, consumerText.json().error.fields.photoConsentVersion]).toEqual([400, 'consentOutdated']);
    const joined = (await join(team.token, 'carla@muster.example')).json();
    await upload(joined.orderId, joined.draftToken, 1);
    const [member] = await t.db.db.select().from(orders).where(eq(orders.id, joined.orderId));
    expect(member!.photoConsentVersion).toBe(TEAM_PHOTO_CONSENT_VERSION);

    const DAY = 24 * 3600 * 1000;
    await setOrder(t.app, joined.orderId, { createdAt: new Date(t.app.now().getTime() - 2 * DAY) });
    expect((await t.app.retention.run()).purged.map((p) => p.orderId)).not.toContain(joined.orderId);
    expect(await t.app.storage.listKeys(`uploads/${joined.orderId}/`)).not.toEqual([]);
    await setOrder(t.app, joined.orderId, { createdAt: new Date(t.app.now().getTime() - 31 * DAY) });
    const run = await t.app.retention.run();
    expect(run.purged.find((p) => p.orderId === joined.orderId)).toMatchObject({ reason: 'unpaidDraft', uploads: 1 });
    expect(await t.app.storage.listKeys(`uploads/${joined.orderId}/`)).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/api/teams/${team.orderId}`, headers: buyer(team.orderId) })).json().seatsUsed).toBe(0);
  });

  test('a member cannot submit while one of their photos still waits for its check (a busy shop checks it in a worker)', async () => {
    const team = await paidTeam({ seats: 2 });
    const joined = (await join(team.token, 'ben@muster.example', '10.70.1.2')).json();
    await upload(joined.orderId, joined.draftToken);
    // A fourth photo taken while the shop was busy: stored, its check not done yet.
    const id = randomUUID();
    await t.db.db.insert(photoChecks).values({ id, orderId: joined.orderId, fileName: 'selfie-4.jpg', storageKey: `uploads/${joined.orderId}/incoming/x`, status: 'checking' });
    const submit = () => t.app.inject({ method: 'POST', url: `/api/team-members/${joined.orderId}/submit`, headers: { 'x-draft-token': joined.draftToken }, payload: { gender: 'male' } });
    const waiting = await submit();
    expect([waiting.statusCode, waiting.json().error.code]).toEqual([409, 'photosChecking']);
    await t.db.db.delete(photoChecks).where(eq(photoChecks.id, id));
    expect((await submit()).statusCode).toBe(200);
  });

  test('a member uploads their own photos and submits without paying; the buyer sees progress, never the photos, and cannot open the member\'s order', async () => {
    const team = await paidTeam({ seats: 2 });
    const joined = (await join(team.token, 'anna@muster.example')).json();
    // The look is the team's: the member cannot choose another.
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/orders/${joined.orderId}/selection`,
      headers: { 'x-draft-token': joined.draftToken },
      payload: { language: 'de', selection: { gender: 'female', style: 'creative', package: 'premium', location: null, outfit: null, extras: [] } },
    });
    expect([changed.statusCode, changed.json().error.code]).toEqual([409, 'teamLook']);
    const early = await t.app.inject({ method: 'POST', url: `/api/team-members/${joined.orderId}/submit`, headers: { 'x-draft-token': joined.draftToken }, payload: { gender: 'female' } });
    expect(early.json().error.code).toBe('notEnoughPhotos');
    await upload(joined.orderId, joined.draftToken);
    const submitted = await t.app.inject({ method: 'POST', url: `/api/team-members/${joined.orderId}/submit`, headers: { 'x-draft-token': joined.draftToken }, payload: { gender: 'female' } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    // The member's own link (their pictures, deleting their photos), on the page and by mail.
    const memberLink = submitted.json().statusUrl as string;
    expect((await t.app.inject({ method: 'GET', url: `/api/orders/${joined.orderId}/status?${memberLink.split('?')[1]}` })).statusCode).toBe(200);
    const [memberMail] = await t.db.db.select().from(outgoingMail).where(and(eq(outgoingMail.orderId, joined.orderId), eq(outgoingMail.template, 'team-member-submitted')));
    expect(memberMail?.text).toContain(memberLink);
    expect(memberMail?.text).toContain('Ihre Fotos sieht Muster Consulting GmbH nicht');
    const [member] = await t.db.db.select().from(orders).where(eq(orders.id, joined.orderId));
    expect(member).toMatchObject({ paymentStatus: 'paid', status: 'paid', gender: 'female', styleBase: 'professional', package: 'pro', totalCents: 0, teamOrderId: team.orderId });
    // Paid by the team: the member's pictures start (the studio here), no invoice of their own.
    expect((await t.db.db.select().from(jobs).where(eq(jobs.orderId, joined.orderId))).map((j) => j.queue)).toEqual(['studio.drafts']);
    expect(await t.app.invoices.forOrder(joined.orderId)).toEqual([]);

    // Staff: the team on the dashboard, the member waiting with its own due time and its company; the team order itself is not waiting.
    const staff = await signInStaff(t.app, '10.70.9.1');
    const dashboard = (await staff.request('GET', '/api/admin/dashboard')).json();
    expect(dashboard.teams.find((x: { id: string }) => x.id === team.orderId)).toMatchObject({ seats: 2, joined: 1, submitted: 1, delivered: 0, company: COMPANY.companyName });
    expect(dashboard.waiting.find((w: { id: string }) => w.id === joined.orderId)).toMatchObject({ team: { orderId: team.orderId, company: COMPANY.companyName }, dueAt: expect.any(String) });
    expect(dashboard.waiting.some((w: { id: string }) => w.id === team.orderId)).toBe(false);
    const detail = (await staff.request('GET', `/api/admin/orders/${team.orderId}`)).json();
    expect(detail.team).toMatchObject({ kind: 'team', seats: 2, members: [{ id: joined.orderId, paymentStatus: 'paid' }] });

    const view = await t.app.inject({ method: 'GET', url: `/api/teams/${team.orderId}`, headers: buyer(team.orderId) });
    expect(view.json().members).toEqual([expect.objectContaining({ email: 'anna@muster.example', progress: 'submitted', deliveredPictures: 0 })]);
    // Nothing in the buyer's view leads to the member's photos.
    expect(view.body).not.toMatch(/uploads|selfie|thumb/i);
    // The buyer's proof opens the team, not the member's order; the member's photos need the member's own proof.
    const buyerOnMember = await t.app.inject({ method: 'GET', url: `/api/orders/${joined.orderId}/status`, headers: buyer(team.orderId) });
    expect(buyerOnMember.statusCode).toBe(404);
    const buyerOnDraft = await t.app.inject({ method: 'GET', url: `/api/orders/${joined.orderId}/draft`, headers: buyer(team.orderId) });
    expect(buyerOnDraft.statusCode).toBe(404);
  });

  test('the buyer downloads every member\'s published pictures of one format as one ZIP, and the square ones as profile pictures', async () => {
    const team = await paidTeam({ seats: 3 });
    const ids: string[] = [];
    for (const email of ['ben@muster.example', 'cara@muster.example']) {
      const joined = (await join(team.token, email)).json();
      ids.push(joined.orderId);
      const results = await addResults(t.app, joined.orderId, ['active', 'active', 'draft']);
      await t.db.db.update(generatedImages).set({ variant: variantWith({ format: 'portrait' }) }).where(eq(generatedImages.id, results[0]!));
      await t.db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, results[1]!));
      await t.db.db.update(generatedImages).set({ variant: variantWith({ format: 'square' }) }).where(eq(generatedImages.id, results[2]!));
    }
    const view = (await t.app.inject({ method: 'GET', url: `/api/teams/${team.orderId}`, headers: buyer(team.orderId) })).json();
    expect(view.members.map((m: { progress: string; deliveredPictures: number }) => [m.progress, m.deliveredPictures])).toEqual([
      ['delivered', 2],
      ['delivered', 2],
    ]);
    expect(view.zips.map((z: { format: string; count: number }) => [z.format, z.count])).toEqual([
      ['portrait', 2],
      ['square', 2],
      ['profile', 2],
    ]);
    const portrait = await t.app.inject({ method: 'GET', url: view.zips[0].url });
    expect(portrait.statusCode).toBe(200);
    expect((await zipEntries(portrait.rawPayload)).map((e) => e.name)).toEqual(['ben/ben-portrait-1.jpg', 'cara/cara-portrait-1.jpg']);
    const profile = await t.app.inject({ method: 'GET', url: view.zips[2].url });
    const entries = await zipEntries(profile.rawPayload);
    expect(entries.map((e) => e.name)).toEqual(['ben/ben-profil-1.jpg', 'cara/cara-profil-1.jpg']);
    const meta = await sharp(entries[0]!.data).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([PROFILE_PICTURE_PX, PROFILE_PICTURE_PX, 'jpeg']);
    // The signature covers the kind: a portrait link does not give the square pictures.
    expect((await t.app.inject({ method: 'GET', url: (view.zips[0].url as string).replace('kind=portrait', 'kind=square') })).statusCode).toBe(403);
  });
});
