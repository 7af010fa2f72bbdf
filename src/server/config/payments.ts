// How customers pay (the sandbox, or Stripe) and the price campaign.
import { z } from 'zod';
import { validateCampaign, type Campaign } from '../../domain/campaign.js';
import { PACKAGE_KEYS, type PackageKey } from '../../domain/catalog.js';
import { bool, optionalString } from './fields.js';

export const paymentsEnv = z.object({
  PAYMENT_PROVIDER: z.enum(['sandbox', 'stripe'], { error: 'must be sandbox or stripe' }).optional(),
  ALLOW_SANDBOX_IN_PRODUCTION: bool.default(false),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
});

export const campaignEnv = z.object({
  CAMPAIGN_PERCENT: z.coerce.number({ error: 'must be a number' }).int().min(0).max(90).default(20),
  CAMPAIGN_PACKAGES: z.string().default('pro,premium'),
  CAMPAIGN_STARTS_AT: z.string().default('2026-11-01T00:00:00+01:00'),
  CAMPAIGN_ENDS_AT: z.string().default('2027-01-01T00:00:00+01:00'),
});

export type PaymentsConfig = { provider: 'sandbox' } | { provider: 'stripe'; secretKey: string; webhookSecret: string };

export function paymentsConfig(env: z.output<typeof paymentsEnv>, production: boolean, problems: string[]): PaymentsConfig {
  const provider = env.PAYMENT_PROVIDER ?? (env.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox');
  let payments: PaymentsConfig = { provider: 'sandbox' };
  if (provider === 'stripe') {
    if (!env.STRIPE_SECRET_KEY) problems.push('STRIPE_SECRET_KEY: required when PAYMENT_PROVIDER is stripe');
    if (!env.STRIPE_WEBHOOK_SECRET) problems.push('STRIPE_WEBHOOK_SECRET: required when PAYMENT_PROVIDER is stripe');
    payments = { provider: 'stripe', secretKey: env.STRIPE_SECRET_KEY ?? '', webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '' };
  } else if (production && !env.ALLOW_SANDBOX_IN_PRODUCTION) {
    problems.push('PAYMENT_PROVIDER: the sandbox takes no real money; configure Stripe or set ALLOW_SANDBOX_IN_PRODUCTION=true');
  }
  return payments;
}

export function parseCampaign(env: z.output<typeof campaignEnv>, problems: string[]): Campaign | null {
  if (env.CAMPAIGN_PERCENT === 0) return null;
  const packages = env.CAMPAIGN_PACKAGES.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const campaign: Campaign = {
    id: `campaign-${env.CAMPAIGN_STARTS_AT.slice(0, 10)}`,
    percent: env.CAMPAIGN_PERCENT,
    packages: packages as PackageKey[],
    startsAt: new Date(env.CAMPAIGN_STARTS_AT),
    endsAt: new Date(env.CAMPAIGN_ENDS_AT),
  };
  for (const problem of validateCampaign(campaign)) problems.push(`CAMPAIGN_*: ${problem} (packages: ${PACKAGE_KEYS.join(', ')})`);
  return campaign;
}
