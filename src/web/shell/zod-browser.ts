// What `zod` means in the browser bundle (vite.config.ts aliases it here): zod, with its JIT off. Our
// Content-Security-Policy forbids eval; zod compiles fast parsers with `new Function` when it may, and probes
// for it first, which the CSP reports as a violation. Without JIT it parses the same way, only without the
// compiled fast path. Set where zod is loaded rather than in the app's start, so a page that validates
// nothing does not download zod to configure it.
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
