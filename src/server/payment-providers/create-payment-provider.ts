import { createHmac } from 'node:crypto';
import type { AppConfig } from '../config.js';
import type { Database } from '../db/client.js';
import { createSandboxProvider, type SandboxPaymentProvider } from './sandbox-provider.js';
import { createStripeProvider, type StripePaymentProvider } from './stripe-provider.js';

/** The sandbox's webhook secret: stable across restarts and processes, and never a real Stripe secret. */
export function sandboxWebhookSecret(appSecret: string): string {
  return `whsec_${createHmac('sha256', appSecret).update('sandbox-webhook').digest('base64url')}`;
}

/**
 * Picks the provider named by the configuration. The result narrows on `name`, so
 * `provider.name === 'sandbox'` yields what the test checkout routes need.
 */
export function createPaymentProvider(
  config: AppConfig['payments'],
  deps: { db: Database; publicUrl: string; appSecret: string; now?: () => Date },
): StripePaymentProvider | SandboxPaymentProvider {
  switch (config.provider) {
    case 'stripe':
      return createStripeProvider({ secretKey: config.secretKey, webhookSecret: config.webhookSecret, now: deps.now });
    case 'sandbox':
      return createSandboxProvider({ db: deps.db, webhookSecret: sandboxWebhookSecret(deps.appSecret), publicUrl: deps.publicUrl, now: deps.now });
  }
}
