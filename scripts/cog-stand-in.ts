// The Cog stand-in (src/server/test/generator/cog-stand-in.ts) as a process, for the browser journey and the
// generator bench: a model container's HTTP API on 127.0.0.1:<port>, answering with real photos of the man in
// test/fixtures/faces, serving zsxkib/instant-id as its predictor is published (src/server/test/generator/published-models.ts).
// Test and bench only: `tsx scripts/cog-stand-in.ts <port> [delayMs] [--upload-url <address>] [--model instant-id|pulid|flux-pulid]
// [--output same-person|self-check-face]`, the upload address as a model image is started
// (`python -m cog.server.http --upload-url …`, README) with the address `npm run generator:check` prints.
import { startCogStandIn } from '../src/server/test/generator/cog-stand-in.js';
import { FLUX_PULID, INSTANT_ID, PULID } from '../src/server/test/generator/published-models.js';
import type { StandInOutput } from '../src/server/test/generator/stand-in-outputs.js';

const option = (name: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const uploadUrl = option('--upload-url');
const model = { 'instant-id': INSTANT_ID, pulid: PULID, 'flux-pulid': FLUX_PULID }[option('--model') ?? 'instant-id'] ?? INSTANT_ID;
const output = (option('--output') ?? 'same-person') as StandInOutput;
const [port, delayMs] = [Number(process.argv[2] ?? 5999), Number(process.argv[3] ?? 100)];
const stand = await startCogStandIn({ port, model, behaviour: { output, delayMs }, ...(uploadUrl ? { uploadUrl } : {}) });
console.log(`cog stand-in on ${stand.baseUrl} (delay ${delayMs} ms, upload url ${uploadUrl ?? 'none: files answered as paths inside the container'})`);
const stop = () => void stand.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
