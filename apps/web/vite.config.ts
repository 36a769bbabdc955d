import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const apiTarget = 'http://localhost:5005';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;

/**
 * Brotli and gzip copies of every compressible file of the build, made once here so that the server only
 * picks the one the browser accepts (`Accept-Encoding`) and never compresses per request. Files under 1 KB
 * and files that do not shrink stay as they are.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'shuzhi-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir).flatMap((name) => {
          const path = join(dir, name);
          return statSync(path).isDirectory() ? walk(path) : [path];
        });
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || file.endsWith('.map')) continue;
        const body = readFileSync(file);
        if (body.length < 1024) continue;
        const brotli = brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        });
        if (brotli.length < body.length) writeFileSync(`${file}.br`, brotli);
        const gzip = gzipSync(body, { level: 9 });
        if (gzip.length < body.length) writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress()],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/swagger': { target: apiTarget, changeOrigin: true },
      '/socket.io': { target: apiTarget, changeOrigin: true, ws: true },
      // The job dashboard page the 任务看板 menu embeds (SPEC §2: served by the API at /schedule).
      '/schedule': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
  },
  test: {
    sequence: { groupOrder: 0 },
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['src/test-setup.ts'],
    testTimeout: 20_000,
  },
});
