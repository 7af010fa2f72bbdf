// The feature routes over the app's services (app-services.ts), and the web pages a web process serves.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from './app-services.js';
import type { AppConfig } from './config.js';
import { outboxRoutes } from './mail/outbox-routes.js';
import { adminRoutes } from './modules/admin/routes.js';
import { authRoutes } from './modules/auth/routes.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { contactRoutes } from './modules/contact/routes.js';
import { customerOrderRoutes } from './modules/customer-orders/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { orderRoutes } from './modules/orders/routes.js';
import { paymentRoutes } from './modules/payments/routes.js';
import { studioRoutes } from './modules/production/routes.js';
import { refundRoutes } from './modules/refunds/routes.js';
import { teamRoutes } from './modules/teams/routes.js';
import { withdrawalRoutes } from './modules/withdrawals/routes.js';
import { PROJECT_ROOT, WEB_DIST_DIR } from './paths.js';
import { localFilesRoutes } from './storage/local-files-routes.js';
import type { LocalStorage } from './storage/local-storage.js';

export async function registerFeatureRoutes(app: FastifyInstance, services: AppServices): Promise<void> {
  await app.register(healthRoutes);
  await app.register(catalogRoutes);
  await app.register(orderRoutes, { service: services.orders });
  await app.register(paymentRoutes, { service: services.orders, provider: services.payments });
  await app.register(customerOrderRoutes, { service: services.customerOrders });
  await app.register(teamRoutes, { service: services.teams });

  await app.register(contactRoutes);
  await app.register(authRoutes, { auth: services.auth });
  await app.register(adminRoutes, { service: services.admin });
  await app.register(studioRoutes, { studio: services.studio, generator: services.generatorService });
  await app.register(refundRoutes, { refunds: services.refunds });
  await app.register(withdrawalRoutes, { withdrawals: services.withdrawals, desk: services.withdrawalDesk });
  await app.register(services.generatorService.webhookRoutes);
}

/** The signed links of local storage, and the development outbox (never in production). */
export async function registerFileAndOutboxRoutes(app: FastifyInstance, config: AppConfig, services: AppServices): Promise<void> {
  if (services.storage.driver === 'local') {
    await app.register(localFilesRoutes, { storage: services.storage as LocalStorage, secret: config.appSecret });
  }
  if (config.env !== 'production') await app.register(outboxRoutes, { db: services.db.db });
}

export async function registerWebPages(app: FastifyInstance, services: AppServices): Promise<void> {
  // Imported here, not at the top: a worker process loads neither React nor the pages (nor the page list
  // that the page-view counter and the sitemap read from them).
  const [{ webRoutes }, { metricsRoutes }, { seoRoutes }] = await Promise.all([import('./modules/web/routes.js'), import('./modules/metrics/routes.js'), import('./modules/seo/routes.js')]);
  await app.register(metricsRoutes);
  await app.register(seoRoutes);
  const built = existsSync(path.join(WEB_DIST_DIR, 'index.html'));
  await app.register(webRoutes, {
    templatePath: built ? path.join(WEB_DIST_DIR, 'index.html') : path.join(PROJECT_ROOT, 'index.html'),
    clientDir: built ? WEB_DIST_DIR : null,
    withdrawalDesk: services.withdrawalDesk,
  });
}
