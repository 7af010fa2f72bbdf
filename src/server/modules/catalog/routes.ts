import type { FastifyPluginAsync } from 'fastify';
import { buildCatalogView } from '../../../domain/catalog-view.js';
import { shopCapabilities } from '../../capabilities.js';

export const catalogRoutes: FastifyPluginAsync = async (app) => {
  app.get('/api/catalog', async (_request, reply) => {
    // Short cache: the campaign can start or end at any minute.
    reply.header('cache-control', 'public, max-age=60');
    return buildCatalogView(app.config.campaign, app.now());
  });

  // The operator's public details (footer, contact, legal pages), the services that need consent, the examples
  // and what the pictures can be (the pages promise only that).
  app.get('/api/site', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return { ...app.config.site, consent: app.config.consentServices, examples: app.config.examples, capabilities: shopCapabilities(app.config) };
  });
};
