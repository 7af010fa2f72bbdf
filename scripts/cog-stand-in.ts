// The Cog stand-in (src/server/generator/cog-stand-in.ts) as a process, for the browser journey and the
// generator bench: a model container's HTTP API on 127.0.0.1:<port>, answering with real photos of the man in
// test/fixtures/faces, serving zsxkib/instant-id as its predictor is published (src/server/generator/published-models.ts).
// Test and bench only: `tsx scripts/cog-stand-in.ts <port> [delayMs] [--upload-url <address>]`, the last as a
// model image is started (`python -m cog.server.http --upload-url …`, README) with the address
// `npm run generator:check` prints.
import { startCogStandIn } from '../src/server/generator/cog-stand-in.js';
import { INSTANT_ID } from '../src/server/generator/published-models.js';

const flag = process.argv.indexOf('--upload-url');
const uploadUrl = flag > 0 ? process.argv[flag + 1] : undefined;
const [port, delayMs] = [Number(process.argv[2] ?? 5999), Number(process.argv[3] ?? 100)];
const stand = await startCogStandIn({ port, model: INSTANT_ID, behaviour: { output: 'same-person', delayMs }, ...(uploadUrl ? { uploadUrl } : {}) });
console.log(`cog stand-in on ${stand.baseUrl} (delay ${delayMs} ms, upload url ${uploadUrl ?? 'none: files answered as paths inside the container'})`);
const stop = () => void stand.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
