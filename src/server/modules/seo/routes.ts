// robots.txt and sitemap.xml (every public page, with its German, English and Spanish addresses) and the web manifest.
import type { FastifyPluginAsync } from 'fastify';
import { LANGUAGES } from '../../../domain/catalog.js';
import { textsIn } from '../../../i18n/all-messages.js';
import { PUBLIC_PAGES } from '../../../web/entry-server.js';

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export const seoRoutes: FastifyPluginAsync = async (app) => {
  const base = app.config.publicUrl;
  const url = (path: string, language: string) => `${base}${path}${language === 'de' ? '' : `?lang=${language}`}`;

  app.get('/robots.txt', async (_request, reply) => {
    const lines = [
      'User-agent: *',
      'Allow: /',
      // Customers' orders, the staff area and the API are nothing to index.
      ...['/admin', '/api/', '/order-status/', '/success', '/sandbox/', '/dev/', '/files/', '/offline', '/team/'].map((path) => `Disallow: ${path}`),
      `Sitemap: ${base}/sitemap.xml`,
    ];
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(`${lines.join('\n')}\n`);
  });

  // The web manifest: the shop can be added to a home screen; the service worker serves its shell offline.
  app.get('/manifest.webmanifest', async (_request, reply) => {
    const site = app.config.site;
    const manifest = {
      name: site.name,
      short_name: site.name.length > 12 ? site.name.split(/\s+/)[0] : site.name,
      description: textsIn('de')('common.footer.tagline'),
      lang: 'de',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#14213d',
      icons: [
        { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    };
    return reply.type('application/manifest+json; charset=utf-8').header('cache-control', 'public, max-age=3600').send(JSON.stringify(manifest));
  });

  app.get('/sitemap.xml', async (_request, reply) => {
    const entries = PUBLIC_PAGES.flatMap((path) =>
      LANGUAGES.map(
        (language) =>
          `  <url>\n    <loc>${escapeXml(url(path, language))}</loc>\n${LANGUAGES.map((alt) => `    <xhtml:link rel="alternate" hreflang="${alt}" href="${escapeXml(url(path, alt))}"/>`).join('\n')}\n    <xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(url(path, 'de'))}"/>\n  </url>`,
      ),
    );
    const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${entries.join('\n')}\n</urlset>\n`;
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(xml);
  });
};
