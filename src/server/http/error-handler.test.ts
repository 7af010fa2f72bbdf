import Fastify from 'fastify';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { registerErrorHandling } from './error-handler.js';
import { AppError } from './errors.js';
import { zodSerializerCompiler, zodValidatorCompiler, type ZodTypeProvider } from './zod-provider.js';

async function app() {
  const logged: unknown[] = [];
  const instance = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(JSON.parse(line)) } } });
  instance.setValidatorCompiler(zodValidatorCompiler);
  instance.setSerializerCompiler(zodSerializerCompiler);
  registerErrorHandling(instance);
  instance.get('/conflict', async () => {
    throw new AppError(409, 'alreadyPaid', undefined, { orderNumber: 'BF-23456789' });
  });
  instance.get('/boom', async () => {
    throw new Error('database password is hunter2');
  });
  instance.withTypeProvider<ZodTypeProvider>().post(
    '/strict',
    {
      schema: {
        body: z.object({ email: z.email({ error: 'invalidEmail' }), count: z.number().int() }).strict(),
        response: { 200: z.object({ ok: z.boolean() }) },
      },
    },
    async () => ({ ok: true, secret: 'not declared, never sent' }) as { ok: boolean },
  );
  await instance.ready();
  return { instance, logged };
}

test('typed failures keep their status and code', async () => {
  const { instance } = await app();
  const response = await instance.inject({ method: 'GET', url: '/conflict' });
  expect(response.statusCode).toBe(409);
  expect(response.json().error).toMatchObject({ code: 'alreadyPaid', details: { orderNumber: 'BF-23456789' } });
});

test('unexpected errors are logged with the request id and hidden from the client', async () => {
  const { instance, logged } = await app();
  const response = await instance.inject({ method: 'GET', url: '/boom' });
  expect(response.statusCode).toBe(500);
  expect(response.body).not.toContain('hunter2');
  expect(response.json().error.code).toBe('internalError');
  const entry = logged.find((l) => (l as { msg?: string }).msg === 'unhandled error') as { reqId: string } | undefined;
  expect(entry?.reqId).toBe(response.json().error.requestId);
});

test('bodies are validated by their schema: field codes, unknown keys refused', async () => {
  const { instance } = await app();
  const bad = await instance.inject({ method: 'POST', url: '/strict', payload: { email: 'nope', count: 1 } });
  expect(bad.statusCode).toBe(400);
  expect(bad.json().error).toMatchObject({ code: 'validationFailed', fields: { email: 'invalidEmail' } });
  const extra = await instance.inject({ method: 'POST', url: '/strict', payload: { email: 'a@b.de', count: 1, admin: true } });
  expect(extra.statusCode).toBe(400);
  expect(extra.json().error.fields).toHaveProperty('_');
});

test('responses carry only the fields their schema declares', async () => {
  const { instance } = await app();
  const response = await instance.inject({ method: 'POST', url: '/strict', payload: { email: 'a@b.de', count: 1 } });
  expect(response.statusCode).toBe(200);
  expect(response.json()).toEqual({ ok: true });
});
