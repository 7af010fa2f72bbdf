// Builds the Fastify app from a validated config: external plugins, then app services as
// typed decorators, then feature routes. Tests build it too (with their own database).
// The parts: the HTTP layer (app-http.ts), the adapters (app-adapters.ts), the services and job runners
// (app-services.ts), the routes (app-routes.ts) and the periodic work (app-background-work.ts).
import type { FastifyInstance } from 'fastify';
import { createAdapters, startGeneratorCheck } from './app-adapters.js';
import { scheduleBackgroundWork } from './app-background-work.js';
import { createFastify, registerHttpPlugins } from './app-http.js';
import { registerFeatureRoutes, registerFileAndOutboxRoutes, registerWebPages } from './app-routes.js';
import { createServices } from './app-services.js';
import type { AppOverrides } from './app-types.js';
import type { AppConfig } from './config.js';

export async function buildApp(config: AppConfig, overrides: AppOverrides = {}): Promise<FastifyInstance> {
  const app = createFastify(config, overrides);
  await registerHttpPlugins(app, config);
  const adapters = await createAdapters(app, config, overrides);
  startGeneratorCheck(app, config, overrides, adapters.generator);
  const services = createServices(app, config, overrides, adapters);
  await registerFeatureRoutes(app, services);
  scheduleBackgroundWork(app, config, services);
  await registerFileAndOutboxRoutes(app, config, services);

  if (overrides.webPages === false) return app;
  await registerWebPages(app, services);
  return app;
}
