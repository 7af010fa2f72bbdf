// The Cog stand-in (src/server/generator/cog-stand-in.ts) as a process, for the browser journey and the
// generator bench: a model container's HTTP API on 127.0.0.1:<port>, answering with real photos of the man in
// test/fixtures/faces, serving zsxkib/instant-id as its predictor is published (src/server/generator/published-models.ts).
// Test and bench only: `tsx scripts/cog-stand-in.ts <port> [delayMs]`.
import { startCogStandIn } from '../src/server/generator/cog-stand-in.js';
import { INSTANT_ID } from '../src/server/generator/published-models.js';

const port = Number(process.argv[2] ?? 5999);
const delayMs = Number(process.argv[3] ?? 100);
const stand = await startCogStandIn({ port, model: INSTANT_ID, behaviour: { output: 'same-person', delayMs } });
console.log(`cog stand-in on ${stand.baseUrl} (delay ${delayMs} ms)`);
const stop = () => void stand.stop().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
