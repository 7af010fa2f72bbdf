// The dev outbox: every mail the shop wrote, readable in a browser and as JSON for tests.
// Registered only outside production; it shows customers' mail to anyone who asks.
import { desc, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { plainText } from '../../domain/validation.js';
import { z } from 'zod';
import type { Database } from '../db/client.js';
import { zodSerializerCompiler, zodValidatorCompiler } from '../http/zod-provider.js';
import { outgoingMail } from '../db/schema.js';

const LIST_LIMIT = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const idParams = z.object({ id: z.string() }).strict();
const notFoundBody = z.object({ error: z.object({ code: z.string(), requestId: z.string() }) });
const mailJson = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  language: z.string(),
  status: z.string(),
  transport: z.string(),
  orderId: z.string().nullable(),
  createdAt: z.string(),
  text: z.string(),
  html: z.string(),
});

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #222; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
dt { font-weight: 600; }
iframe { width: 100%; height: 75vh; border: 1px solid #ccc; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

function sendNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).type('application/json; charset=utf-8').send({ error: { code: 'notFound', requestId: request.id } });
}

export const outboxRoutes: FastifyPluginAsync<{ db: Database }> = async (app, { db }) => {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(zodSerializerCompiler);
  // A developer tool with inline styles, showing mails whose HTML uses inline styles: a looser style
  // policy than the shop's, still without any script.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data: https:; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
  });
  async function findMail(id: string) {
    if (!UUID.test(id)) return null;
    const [mail] = await db.select().from(outgoingMail).where(eq(outgoingMail.id, id));
    return mail ?? null;
  }

  app.get('/dev/outbox', async (_request, reply) => {
    const mails = await db.select().from(outgoingMail).orderBy(desc(outgoingMail.createdAt)).limit(LIST_LIMIT);
    const rows = mails
      .map(
        (m) => `<tr>
<td><time datetime="${m.createdAt.toISOString()}">${escapeHtml(m.createdAt.toISOString())}</time></td>
<td>${escapeHtml(m.toAddress)}</td>
<td><a href="/dev/outbox/${escapeHtml(m.id)}">${escapeHtml(m.subject)}</a></td>
<td>${escapeHtml(m.template)}</td>
<td>${escapeHtml(m.language)}</td>
<td>${escapeHtml(m.status)}</td>
<td><a href="/dev/outbox/${escapeHtml(m.id)}.txt">text</a></td>
</tr>`,
      )
      .join('\n');
    const body = `<h1>Dev outbox</h1>
<p>The newest ${LIST_LIMIT} mails the shop wrote. With SMTP configured they were also sent.</p>
${
  mails.length === 0
    ? '<p>No mail yet.</p>'
    : `<table>
<thead><tr><th>Time</th><th>To</th><th>Subject</th><th>Template</th><th>Language</th><th>Status</th><th></th></tr></thead>
<tbody>
${rows}
</tbody>
</table>`
}`;
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page('Dev outbox', body));
  });

  app.get<{ Params: { id: string } }>('/dev/outbox/:id.txt', { schema: { params: idParams, response: { 404: notFoundBody } } }, async (request, reply) => {
    const mail = await findMail(request.params.id);
    if (!mail) return sendNotFound(request, reply);
    return reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(mail.text);
  });

  app.get<{ Params: { id: string } }>('/dev/outbox/:id', { schema: { params: idParams, response: { 404: notFoundBody } } }, async (request, reply) => {
    const mail = await findMail(request.params.id);
    if (!mail) return sendNotFound(request, reply);
    // The mail's own HTML goes into a sandboxed frame: its styles cannot touch this page
    // and any script in it stays inert, as in a mail client.
    const body = `<p><a href="/dev/outbox">← Dev outbox</a></p>
<h1>${escapeHtml(mail.subject)}</h1>
<dl>
<dt>To</dt><dd>${escapeHtml(mail.toAddress)}</dd>
<dt>From</dt><dd>${escapeHtml(mail.fromAddress)}</dd>
<dt>Subject</dt><dd>${escapeHtml(mail.subject)}</dd>
<dt>Template</dt><dd>${escapeHtml(mail.template)} (${escapeHtml(mail.language)})</dd>
<dt>Status</dt><dd>${escapeHtml(mail.status)}${mail.error ? `: ${escapeHtml(mail.error)}` : ''}</dd>
<dt>Created</dt><dd>${escapeHtml(mail.createdAt.toISOString())}</dd>
</dl>
<p><a href="/dev/outbox/${escapeHtml(mail.id)}.txt">Text version</a></p>
<iframe sandbox title="HTML body" srcdoc="${escapeHtml(mail.html)}"></iframe>`;
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page(mail.subject, body));
  });

  app.get<{ Querystring: { to?: string } }>(
    '/api/dev/outbox',
    {
      schema: {
        querystring: z.object({ to: plainText().max(254).optional() }).strict(),
        response: { 200: z.object({ mails: z.array(mailJson) }) },
      },
    },
    async (request) => {
      const { to } = request.query;
      const mails = await db
        .select()
        .from(outgoingMail)
        // Case-insensitive: tests type addresses as the customer did, not as stored.
        .where(to === undefined ? undefined : eq(sql`lower(${outgoingMail.toAddress})`, to.toLowerCase()))
        .orderBy(desc(outgoingMail.createdAt))
        .limit(LIST_LIMIT);
      return {
        mails: mails.map((m) => ({
          id: m.id,
          to: m.toAddress,
          subject: m.subject,
          template: m.template,
          language: m.language,
          status: m.status,
          transport: m.transport,
          orderId: m.orderId,
          createdAt: m.createdAt.toISOString(),
          text: m.text,
          html: m.html,
        })),
      };
    },
  );
};
