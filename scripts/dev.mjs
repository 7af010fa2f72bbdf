// `npm run dev`: the API (restarting on changes) on API_PORT 3001, and Vite's dev server with hot reload
// on http://localhost:3000 in front of it. Ctrl-C stops both.
import { spawn } from 'node:child_process';
import { ROOT } from './build-info.mjs';

const apiPort = process.env.API_PORT ?? '3001';
const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', '--import', './scripts/ignore-styles.mjs', 'src/server/main.ts'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'development', PORT: apiPort, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:3000' },
  }),
  spawn('npx', ['vite'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, API_PORT: apiPort } }),
];

let stopping = false;
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGINT');
  setTimeout(() => process.exit(code), 500);
}
for (const child of children) child.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
