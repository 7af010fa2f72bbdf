import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const base = { NODE_ENV: 'test', DATA_DIR: '/tmp/shop-config-test', APP_SECRET: 'a'.repeat(32) };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...base, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

test('defaults give an embedded shop on port 3000', () => {
  const config = loadConfig(base);
  expect(config.port).toBe(3000);
  expect(config.database.kind).toBe('pglite');
  expect(config.storage.driver).toBe('local');
  expect(config.payments.provider).toBe('sandbox');
  expect(config.mail.smtpUrl).toBeUndefined();
  expect(config.campaign?.percent).toBe(20);
  expect(config.signedUrlTtlSeconds).toBe(3600);
});

test('a wrong setting names the setting', () => {
  expect(problems({ PORT: 'abc' })[0]).toMatch(/^PORT: /);
  expect(problems({ DATABASE_URL: 'mysql://x' })[0]).toMatch(/^DATABASE_URL: /);
  expect(problems({ SMTP_URL: 'http://x' })[0]).toMatch(/^SMTP_URL: /);
  expect(problems({ CAMPAIGN_PACKAGES: 'gold' })[0]).toMatch(/^CAMPAIGN_\*: unknown package "gold"/);
  expect(problems({ CAMPAIGN_ENDS_AT: '2020-01-01' })[0]).toMatch(/end must be after start/);
  expect(problems({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })[0]).toMatch(/^S3_ACCESS_KEY_ID/);
  expect(problems({ DEFAULT_PRODUCTION_MODE: 'generator' })).toContain('DEFAULT_PRODUCTION_MODE: generator needs GENERATOR');
});

test('production refuses the sandbox and a missing secret unless told', () => {
  const found = problems({ NODE_ENV: 'production', APP_SECRET: '' });
  expect(found.some((p) => p.startsWith('APP_SECRET'))).toBe(true);
  expect(found.some((p) => p.startsWith('PAYMENT_PROVIDER'))).toBe(true);
  expect(problems({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true' })).toEqual([
    'SITE_LEGAL_NAME / SITE_ADDRESS: required in production for the Impressum',
    'SITE_VAT_ID / SITE_TAX_NUMBER: one is required in production for invoices (§ 14 UStG)',
  ]);
  expect(problems({ NODE_ENV: 'production', ALLOW_SANDBOX_IN_PRODUCTION: 'true', SITE_LEGAL_NAME: 'Foto GmbH', SITE_ADDRESS: 'Weg 1, 10115 Berlin', SITE_TAX_NUMBER: '30/123/45678' })).toEqual([]);
  expect(problems({ PAYMENT_PROVIDER: 'stripe' }).map((p) => p.split(':')[0])).toEqual(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);
});

test('TRUST_PROXY takes hops or addresses, and a public https shop refuses development mode', () => {
  expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
  expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toBe('10.0.0.1, 10.0.0.2');
  expect(problems({ TRUST_PROXY: 'yes please' })[0]).toMatch(/^TRUST_PROXY/);
  expect(problems({ NODE_ENV: 'development', PUBLIC_URL: 'https://www.shop.de' })[0]).toMatch(/^NODE_ENV/);
  expect(problems({ NODE_ENV: 'development', PUBLIC_URL: 'https://localhost:3000' })).toEqual([]);
});

test('DATABASE_URL switches to PostgreSQL and S3_BUCKET to object storage', () => {
  const config = loadConfig({ ...base, DATABASE_URL: 'postgres://u@h/db', S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000' });
  expect(config.database).toMatchObject({ kind: 'postgres', url: 'postgres://u@h/db' });
  expect(config.storage).toMatchObject({ driver: 's3', bucket: 'photos', endpoint: 'http://127.0.0.1:9000' });
});

test('profiles, sister sites, third-party services and examples are checked at start', () => {
  const config = loadConfig({ ...base, SOCIAL_LINKS: 'xing=https://www.xing.com/pages/x', SISTER_SITES: 'fr=https://photos.example.fr', CHAT_SCRIPT_URL: 'https://chat.example.com/w.js' });
  expect(config.site.socialLinks).toEqual([{ key: 'xing', label: 'XING', url: 'https://www.xing.com/pages/x' }]);
  expect(config.site.sisterSites).toEqual([{ key: 'fr', label: 'Français', url: 'https://photos.example.fr' }]);
  expect(config.consentServices).toEqual({ analytics: null, chat: { scriptUrl: 'https://chat.example.com/w.js', name: 'chat.example.com' } });
  expect(problems({ SOCIAL_LINKS: 'myspace=https://myspace.com/x' })[0]).toMatch(/^SOCIAL_LINKS: "myspace=/);
  expect(problems({ SISTER_SITES: 'en=http://insecure.example' })[0]).toMatch(/^SISTER_SITES: /);
  expect(problems({ ANALYTICS_SCRIPT_URL: 'http://stats.example.org/tag.js' })[0]).toMatch(/^ANALYTICS_SCRIPT_URL: must be an https:\/\/ URL/);
  expect(problems({ EXAMPLES_FILE: '/nowhere/examples.json' })[0]).toMatch(/^EXAMPLES_FILE: .* does not exist/);
});

test('a broken examples manifest names the wrong field', () => {
  const file = path.join(os.tmpdir(), `bad-examples-${process.pid}.json`);
  writeFileSync(file, JSON.stringify({ pairs: [{ id: 'a', before: { src: 'javascript:alert(1)', width: 1, height: 1 }, after: { src: '/x.webp', width: 1, height: 1 }, style: 'professional', location: 'studio', credit: 'x' }] }));
  expect(problems({ EXAMPLES_FILE: file })[0]).toMatch(/^EXAMPLES_FILE: .*pairs\.0\.before\.src/);
  writeFileSync(file, '{nope');
  expect(problems({ EXAMPLES_FILE: file })[0]).toMatch(/not valid JSON/);
});

test('generator settings: a kind with what it needs, a model whose inputs are known, Cog only with a webhook secret', () => {
  const version = 'b'.repeat(64);
  expect(loadConfig(base).generator).toBeNull();
  const replicate = loadConfig({ ...base, GENERATOR: 'replicate', REPLICATE_API_TOKEN: 'r8_x', GENERATOR_MODEL: `zsxkib/pulid:${version}` }).generator;
  expect(replicate).toMatchObject({ kind: 'replicate', baseUrl: 'https://api.replicate.com/v1', model: `zsxkib/pulid:${version}`, webhookSecret: null });
  expect(problems({ GENERATOR: 'replicate', GENERATOR_MODEL: `zsxkib/pulid:${version}` })).toEqual(['REPLICATE_API_TOKEN: required with GENERATOR=replicate']);
  expect(problems({ GENERATOR: 'replicate', REPLICATE_API_TOKEN: 'r8_x', GENERATOR_MODEL: 'zsxkib/pulid' })[0]).toMatch(/^GENERATOR_MODEL: a community model needs its version/);
  expect(problems({ GENERATOR: 'replicate', REPLICATE_API_TOKEN: 'r8_x', GENERATOR_MODEL: 'acme/headshots' })[0]).toMatch(/^GENERATOR_PROFILE: required/);
  expect(problems({ GENERATOR: 'replicate', REPLICATE_API_TOKEN: 'r8_x', GENERATOR_MODEL: 'acme/headshots', GENERATOR_PROFILE: 'generic' })).toEqual(['GENERATOR_INPUT_MAP: required with GENERATOR_PROFILE=generic']);
  expect(problems({ GENERATOR: 'replicate', REPLICATE_API_TOKEN: 'r8_x', GENERATOR_MODEL: 'acme/headshots', GENERATOR_PROFILE: 'generic', GENERATOR_INPUT_MAP: '{"faces":"image"}' })[0]).toMatch(/^GENERATOR_INPUT_MAP: prompt/);
  expect(problems({ GENERATOR: 'replicate', REPLICATE_API_TOKEN: 'r8_x', GENERATOR_MODEL: `zsxkib/pulid:${version}`, GENERATOR_WEBHOOK_SECRET: 'secret' })[0]).toMatch(/^GENERATOR_WEBHOOK_SECRET: Replicate/);
  expect(problems({ GENERATOR: 'cog', COG_URL: 'http://gpu-1:5000', GENERATOR_PROFILE: 'instant-id' })[0]).toMatch(/^GENERATOR_WEBHOOK_SECRET: required with GENERATOR=cog/);
  expect(problems({ GENERATOR: 'cog', GENERATOR_PROFILE: 'instant-id', GENERATOR_WEBHOOK_SECRET: 'x'.repeat(32) })).toEqual(['COG_URL: required with GENERATOR=cog']);
  const cog = loadConfig({ ...base, GENERATOR: 'cog', COG_URL: 'http://gpu-1:5000', GENERATOR_MODEL: 'zsxkib/instant-id', GENERATOR_WEBHOOK_SECRET: 'x'.repeat(32) });
  expect(cog.generator).toMatchObject({ kind: 'cog', baseUrl: 'http://gpu-1:5000', name: 'gpu-1' });
  expect(cog.site.generatorName).toBe('gpu-1');
  expect(problems({ GENERATOR: 'comfy' })[0]).toMatch(/^GENERATOR: must be replicate or cog/);
});
