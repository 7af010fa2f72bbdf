// Serves the built browser assets and renders every page on the server (real HTML, then hydrated).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '../../../domain/catalog.js';
import { buildCatalogView } from '../../../domain/catalog-view.js';
import {
  SCRIPT_NONCE_PLACEHOLDER,
  STATIC_PAGE_ELEMENT_ID,
  STYLE_NONCE_PLACEHOLDER,
  TEXT_FILES_PREFIX,
  errorPage,
  preloadAllPages,
  render,
  textFile,
  withBootScript,
  withoutAppCss,
  type WithdrawalFormAnswer,
} from '../../../web/entry-server.js';
import { shopCapabilities } from '../../capabilities.js';
import type { WithdrawalDesk } from '../withdrawals/routes.js';

export interface WebRoutesOptions {
  templatePath: string;
  /** The built client (dist/client); null in tests and development, where no assets are served. */
  clientDir: string | null;
  /** Takes the withdrawal form sent without script (POST /widerruf). */
  withdrawalDesk: WithdrawalDesk;
}

/** The withdrawal form's fields as sent; anything else (a list, a missing field) counts as empty. */
function formField(body: unknown, name: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

/** A form's body is small: three fields and a language. */
const FORM_BODY_LIMIT = 16 * 1024;

function cookieLanguage(request: FastifyRequest): Language | null {
  const header = request.headers.cookie;
  if (!header) return null;
  const match = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(header);
  return match && isLanguage(match[1]) ? match[1] : null;
}

/** ?lang= in the address (hreflang links) wins, then the visitor's remembered choice, then German. */
export function requestLanguage(request: FastifyRequest): { language: Language; fromUrl: boolean } {
  const query = request.query as Record<string, unknown>;
  if (isLanguage(query.lang)) return { language: query.lang, fromUrl: true };
  return { language: cookieLanguage(request) ?? DEFAULT_LANGUAGE, fromUrl: false };
}

/** The template without its module script and preloads (for the offline page, which runs nothing). */
function withoutScripts(template: string): string {
  return template.replace(/<script type="module"[^>]*><\/script>\s*/g, '').replace(/<link rel="modulepreload"[^>]*>\s*/g, '');
}

export const webRoutes: FastifyPluginAsync<WebRoutesOptions> = async (app, options) => {
  const source = readFileSync(options.templatePath, 'utf8');
  // The entry script is loaded by an inline first script after the first paint (web/boot.ts).
  const template = withBootScript(source, STATIC_PAGE_ELEMENT_ID);
  // Pages the React application does not run on leave its styles out (home, guides, legal texts: their small
  // script only; the offline and error pages: no script at all).
  const staticTemplate = withoutAppCss(template);
  const scriptlessTemplate = withoutAppCss(withoutScripts(source));
  await preloadAllPages();

  if (options.clientDir) {
    await app.register(fastifyStatic, {
      root: options.clientDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The template is only ever served rendered.
      allowedPath: (pathName) => pathName !== '/index.html',
      cacheControl: false,
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        // The service worker is checked for updates on every visit; hashed assets never change.
        const name = path.basename(filePath).replace(/\.(br|gz)$/, '');
        reply.header(
          'cache-control',
          name === 'sw.js' ? 'no-cache' : filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }

  /** The page at `url`, rendered; `withdrawal`: the answer to the withdrawal form sent without script. */
  async function sendPage(request: FastifyRequest, reply: FastifyReply, page: { language: Language; fromUrl: boolean; status?: number; withdrawal?: WithdrawalFormAnswer }) {
    // (the nonces are created by @fastify/helmet for every answer; the style's is for the inlined stylesheet)
    const nonces = (reply as unknown as { cspNonce?: { script: string; style: string } }).cspNonce;
    const url = request.url;
    const { language, fromUrl } = page;
    let result: Awaited<ReturnType<typeof render>>;
    try {
      result = await render({
        url,
        language,
        languageFromUrl: fromUrl,
        catalog: buildCatalogView(app.config.campaign, app.now()),
        site: app.config.site,
        consent: app.config.consentServices,
        examples: app.config.examples,
        capabilities: shopCapabilities(app.config),
        publicUrl: app.config.publicUrl,
        now: app.now(),
        nonce: nonces?.script,
        ...(page.withdrawal ? { withdrawal: page.withdrawal } : {}),
      });
    } catch (error) {
      // A page that cannot be rendered still answers as a page, in the visitor's language.
      // The path only: query strings carry status tokens and e-mail addresses (tracking links).
      request.log.error({ err: error, path: url.split('?', 1)[0] }, 'page rendering failed');
      const failed = errorPage(language);
      const body = scriptlessTemplate
        .replace(STYLE_NONCE_PLACEHOLDER, nonces?.style ?? '')
        .replace('<!--app-lang-->', language)
        .replace('<!--app-head-->', failed.head)
        .replace('<!--app-html-->', failed.html)
        .replace('<!--app-data-->', '');
      return reply.status(500).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
    }
    if (result.kind === 'redirect') return reply.redirect(result.to, 302);
    // A missing file (a path with an extension): the shop's error shape, like every other 404.
    if (result.kind === 'notFound') return reply.callNotFound();
    const html = (result.app ? template : result.scripts ? staticTemplate : scriptlessTemplate)
      .replace(STYLE_NONCE_PLACEHOLDER, nonces?.style ?? '')
      .replace(SCRIPT_NONCE_PLACEHOLDER, nonces?.script ?? '')
      .replace('<!--app-lang-->', result.language)
      .replace('<!--app-head-->', result.head)
      .replace('<!--app-html-->', result.html)
      .replace('<!--app-data-->', result.dataScript);
    return reply
      .status(page.status ?? 200)
      // An answer to a form holds what the visitor sent: never kept by a cache.
      .header('cache-control', page.withdrawal ? 'no-store' : 'no-cache')
      .header('vary', 'Cookie')
      .header('content-language', result.language)
      .type('text/html; charset=utf-8')
      .send(html);
  }

  // The texts pages hydrate with (web/text-files.ts): named by a hash of their content, so cached for good.
  app.get(`${TEXT_FILES_PREFIX}:file`, async (request, reply) => {
    const body = textFile(request.url.split('?', 1)[0]!);
    if (body === null) return reply.callNotFound();
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type('application/json; charset=utf-8').send(body);
  });

  app.get('/*', async (request, reply) => {
    const url = request.url;
    if (url.startsWith('/api/') || url === '/api') {
      return reply.status(404).send({ error: { code: 'notFound', requestId: request.id } });
    }
    return sendPage(request, reply, requestLanguage(request));
  });

  // The withdrawal form sent without script (the page runs no application): checked, limited and stored as
  // the API does it, answered with the page showing the errors or the receipt.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.post('/widerruf', async (request, reply) => {
    const sent = formField(request.body, 'language');
    const language = isLanguage(sent) ? sent : requestLanguage(request).language;
    const values = { name: formField(request.body, 'name'), reference: formField(request.body, 'reference'), email: formField(request.body, 'email') };
    const answer = await options.withdrawalDesk(values, language, request.ip);
    const page = { language, fromUrl: false };
    // The page with its errors is the answer the visitor asked for (as Django answers a form): 200, so the
    // browser logs no failed load; a refusal by the limit is a 429.
    if (answer.kind === 'invalid') return sendPage(request, reply, { ...page, withdrawal: { values, errors: answer.fields } });
    if (answer.kind === 'rateLimited') return sendPage(request, reply, { ...page, status: 429, withdrawal: { values, formError: 'rateLimited' } });
    return sendPage(request, reply, { ...page, withdrawal: { values, receipt: { ...answer.receipt, email: answer.email } } });
  });
};
