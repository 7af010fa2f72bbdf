import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server bundle: Node entry points, with the React renderer bundled in and npm packages left external.
export default defineConfig({
  plugins: [react()],
  publicDir: false,
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist/server',
    emptyOutDir: true,
    sourcemap: true,
    copyPublicDir: false,
    rollupOptions: {
      input: {
        main: 'src/server/main.ts',
        worker: 'src/server/worker-main.ts',
        'studio-inference': 'src/studio/inference/worker.ts',
        'db-migrate': 'src/server/cli/db-migrate.ts',
        'admin-create': 'src/server/cli/admin-create.ts',
      },
      output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js' },
    },
  },
});
