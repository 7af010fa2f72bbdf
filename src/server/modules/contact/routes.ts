// The contact form really delivers (docs/rules.md §5): validated again here, rate-limited,
// stored, and mailed to support with the sender as reply address.
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { LANGUAGES } from '../../../domain/catalog.js';
import { contactFormSchema, fieldErrors } from '../../../domain/validation.js';
import { contactMessages } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { createRateLimiter } from '../../http/rate-limit.js';
import { renderContactNote } from '../../mail/staff-mails.js';

/** Spec: 'Too many requests. Please wait 15 minutes.' */
export const CONTACT_LIMIT = { messages: 5, windowMs: 15 * 60 * 1000 } as const;

const bodySchema = z
  .object({ name: z.unknown(), email: z.unknown(), message: z.unknown(), language: z.enum(LANGUAGES).default('de') })
  .strict();

export const contactRoutes: FastifyPluginAsync = async (app) => {
  const limiter = createRateLimiter(app.db.db, app.now);

  app.post('/api/contact', async (request, reply) => {
    const body = bodySchema.safeParse(request.body);
    if (!body.success) throw new AppError(400, 'validationFailed');
    const { language, ...fields } = body.data;
    const parsed = contactFormSchema.safeParse(fields);
    if (!parsed.success) {
      const codes = fieldErrors(parsed.error);
      if (Object.values(codes).includes('suspiciousContent')) {
        // Security event: logged with the address, without the content.
        request.log.warn({ event: 'contact_suspicious_content', ip: request.ip }, 'contact form refused');
      }
      return reply.status(400).send({ error: { code: 'validationFailed', requestId: request.id, fields: codes } });
    }
    const hit = await limiter.hit(`contact:ip:${request.ip}`, CONTACT_LIMIT.messages, CONTACT_LIMIT.windowMs);
    if (!hit.allowed) throw new AppError(429, 'rateLimited');
    const message = parsed.data;
    const id = randomUUID();
    await app.db.db.insert(contactMessages).values({ id, name: message.name, email: message.email, message: message.message, language, createdAt: app.now() });
    const sent = await app.mailer.sendEmail({
      to: app.config.mail.supportEmail,
      replyTo: message.email,
      ...renderContactNote({ language, name: message.name, email: message.email, message: message.message }),
      template: 'contact-message',
      language: 'de',
      dedupeKey: `contact:${id}`,
    });
    // Stored either way: staff see it on the dashboard even if the mail server is down.
    if (!sent.ok) request.log.error({ contactId: id, error: sent.error }, 'contact mail failed');
    return reply.status(201).send({ ok: true });
  });
};
