// Our Content-Security-Policy forbids eval. Zod compiles fast parsers with `new Function` when it may, and
// probes for it first; under the CSP that probe is reported as a violation on every interactive page. Without
// JIT it parses the same way, only without the compiled fast path. Imported first by the browser's start.
import { config } from 'zod';

config({ jitless: true });
