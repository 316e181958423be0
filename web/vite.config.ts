import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// Built into dist/web at `npm run build`; the daemon serves it at `/` (src/api/dashboard/static.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    chunkSizeWarningLimit: 200,
  },
});
