// Field types the settings' schemas share (config.ts and its parts in this folder).
import { z } from 'zod';

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');
export const url = z.url({ error: 'must be a URL' });
export const optionalString = z.string().trim().min(1).optional();
export const httpsUrl = z.url({ protocol: /^https$/, error: 'must be an https:// URL' });
