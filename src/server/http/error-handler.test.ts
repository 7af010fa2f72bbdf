import { connect, type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { expect, test } from 'vitest';
import { z } from 'zod';
import { MAX_URL_LENGTH, clientErrorHandler, frameworkErrorHandler, registerErrorHandling, rethrowMultipartError } from './error-handler.js';
import { AppError } from './errors.js';
import { zodSerializerCompiler, zodValidatorCompiler, type ZodTypeProvider } from './zod-provider.js';

async function app() {
  const logged: unknown[] = [];
  const instance = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => logged.push(JSON.parse(line)) } },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
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
  instance.get('/orders/:id', async () => ({ ok: true }));
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

function expectOurShape(response: { statusCode: number; headers: Record<string, unknown>; json(): { error: { code: string; requestId: string } } }, status: number, code: string) {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toEqual({ error: { code, requestId: response.headers['x-request-id'] } });
  expect(response.headers['x-content-type-options']).toBe('nosniff');
}

test('what the router refuses is answered in our shape: bad percent-encoding 400, a parameter over maxParamLength 414', async () => {
  const { instance } = await app();
  expectOurShape(await instance.inject({ method: 'GET', url: '/orders/%' }), 400, 'badRequest');
  const tooLong = await instance.inject({ method: 'GET', url: `/orders/${'x'.repeat(101)}` });
  expectOurShape(tooLong, 414, 'uriTooLong');
  // Fastify's own answer quoted the address back.
  expect(tooLong.body).not.toContain('xxxx');
  expect((await instance.inject({ method: 'GET', url: `/orders/${'x'.repeat(100)}` })).statusCode).toBe(200);
});

test(`an address longer than ${MAX_URL_LENGTH} characters is a 414 in our shape, also where no route matches`, async () => {
  const { instance } = await app();
  expectOurShape(await instance.inject({ method: 'GET', url: `/conflict?q=${'x'.repeat(MAX_URL_LENGTH)}` }), 414, 'uriTooLong');
  expectOurShape(await instance.inject({ method: 'GET', url: `/nowhere/${'x'.repeat(MAX_URL_LENGTH)}` }), 414, 'uriTooLong');
  expect((await instance.inject({ method: 'GET', url: `/conflict?q=${'x'.repeat(MAX_URL_LENGTH - 20)}` })).statusCode).toBe(409);
});

test("what Node's parser refuses is answered in our shape on the socket, and only its code is logged", async () => {
  const { instance, logged } = await app();
  await instance.listen({ port: 0, host: '127.0.0.1' });
  try {
    const { port } = instance.server.address() as AddressInfo;
    const send = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('error', () => {});
        socket.on('close', () => resolve(answer));
        socket.write(request);
      });
    const parse = (answer: string) => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      return { status: Number(head.split(' ')[1]), head: head.toLowerCase(), body: JSON.parse(body) as { error: { code: string; requestId: string } } };
    };
    const headers = parse(await send(`GET /conflict HTTP/1.1\r\nHost: x\r\nX-Secret: ${'hunter2'.repeat(3000)}\r\n\r\n`));
    expect(headers.status).toBe(431);
    expect(headers.body.error.code).toBe('headersTooLarge');
    expect(headers.head).toContain(`x-request-id: ${headers.body.error.requestId}`);
    const method = parse(await send('HUNTER2 /conflict HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(method.status).toBe(400);
    expect(method.body.error.code).toBe('badRequest');
    const entries = logged.filter((line) => (line as { msg?: string }).msg === 'client error');
    expect(entries).toHaveLength(2);
    expect(JSON.stringify(logged)).not.toContain('hunter2');
  } finally {
    await instance.close();
  }
});

test('multipart errors: what busboy throws for a broken body is a 400, limits on the parts too, other statuses stay', () => {
  const thrown = (error: unknown) => {
    try {
      rethrowMultipartError(error);
    } catch (caught) {
      return caught as { statusCode?: number; code?: string };
    }
    throw new Error('did not throw');
  };
  for (const error of [new Error('Unexpected end of multipart data'), new Error('Multipart: Boundary not found'), Object.assign(new Error('reach fields limit'), { code: 'FST_FIELDS_LIMIT', statusCode: 413 })]) {
    expect(thrown(error)).toMatchObject({ statusCode: 400, code: 'malformedUpload' });
  }
  const closed = Object.assign(new Error('closed early'), { code: 'FST_MP_PREMATURE_CLOSE', statusCode: 400 });
  expect(thrown(closed)).toBe(closed);
  const typed = new AppError(415, 'notAnImage');
  expect(thrown(typed)).toBe(typed);
});
