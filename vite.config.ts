import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compileHints } from './scripts/vite/compile-hints.js';
import { inlineCss } from './scripts/vite/inline-css.js';
import { loadOrderChunks } from './scripts/vite/load-order-chunks.js';
import { precompress } from './scripts/vite/precompress.js';
import { routerWithoutDisplayNames } from './scripts/vite/router-display-names.js';
import { serviceWorker } from './scripts/vite/service-worker.js';

// `npm run dev`: Vite serves the browser app on 3000 with the API (started by scripts/dev.mjs on 3001) behind it.
const apiTarget = `http://localhost:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  plugins: [
    react(),
    routerWithoutDisplayNames(),
    serviceWorker({ source: 'src/web/sw/service-worker.js', publicDir: 'public', extraShell: ['/manifest.webmanifest'] }),
    inlineCss(),
    // React and the app's frame: all their functions compiled while they download (scripts/vite/compile-hints.ts).
    compileHints(['react', 'app']),
    precompress(),
    {
      // Without server rendering (dev server) the template's placeholders get neutral values.
      name: 'dev-template',
      apply: 'serve',
      transformIndexHtml: (html) => html.replace('<!--app-lang-->', 'de'),
    },
  ],
  publicDir: 'public',
  resolve: {
    // zod with its JIT off (no eval under our CSP), configured where it is loaded: src/web/shell/zod-browser.ts.
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/web/shell/zod-browser.ts', import.meta.url)) }],
  },
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      input: 'index.html',
      output: {
        codeSplitting: loadOrderChunks(/src[\\/]web[\\/]entry-client\.tsx$/, [
          // React, the router and the page's frame. A page served without the application runs static-page.ts
          // instead (entry-client.tsx). The order wizard's frame comes along: most visitors who load the app go
          // through it, and a file of its own would cost every step a request.
          // React and its DOM renderer: run first, apart from the app's modules (src/web/shell/react-runtime.ts).
          { name: 'react', root: /src[\\/]web[\\/]shell[\\/]react-runtime\.ts$/, besides: [/src[\\/]web[\\/]shell[\\/]static-page\.ts$/] },
          {
            name: 'app',
            root: /src[\\/]web[\\/]shell[\\/]client-start\.tsx$/,
            with: [/src[\\/]web[\\/]pages[\\/]order[\\/]order-routes\.tsx$/],
            besides: [/src[\\/]web[\\/]shell[\\/]static-page\.ts$/],
            smallShared: { roots: 3, maxBytes: 3000 },
          },
          // The summary with the price calculation, which the team order and the staff area use too.
          {
            name: 'summary',
            root: /src[\\/]web[\\/]pages[\\/]order[\\/]summary-step\.tsx$/,
            followers: [/src[\\/]web[\\/]pages[\\/]team[\\/]team-order-page\.tsx$/, /src[\\/]web[\\/]pages[\\/]admin[\\/]admin-routes\.tsx$/],
          },
          // The upload step with the photo uploader; a team member's pages use the uploader too.
          {
            name: 'upload',
            root: /src[\\/]web[\\/]pages[\\/]order[\\/]upload-step\.tsx$/,
            followers: [/src[\\/]web[\\/]pages[\\/]team[\\/]team-(join|member)-page\.tsx$/],
          },
        ]),
      },
    },
  },
  server: {
    port: 3000,
    strictPort: true,
    proxy: {
      '/api': apiTarget,
      '/files': apiTarget,
      '/dev': apiTarget,
    },
  },
});
