import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const apiTarget = 'http://localhost:5005';

export default defineConfig({
  plugins: [react()],
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
    rolldownOptions: {
      output: {
        // Vendor code changes far less often than ours; separate chunks keep the browser cache warm.
        codeSplitting: {
          groups: [
            {
              name: 'vendor-react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
            { name: 'vendor-icons', test: /node_modules[\\/]@ant-design[\\/]icons/, priority: 25 },
            {
              name: 'vendor-antd',
              test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/,
              priority: 20,
            },
            { name: 'vendor-crypto', test: /node_modules[\\/](sm-crypto|jsbn)[\\/]/, priority: 15 },
            // The file preview's readers load when a spreadsheet or document is first previewed, not with the app.
            {
              name: 'vendor-file-preview',
              test: /node_modules[\\/](@e965[\\/]xlsx|docx-preview|jszip)[\\/]/,
              priority: 12,
            },
            { name: 'vendor', test: /node_modules/, priority: 10 },
          ],
        },
      },
    },
  },
  test: {
    sequence: { groupOrder: 0 },
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['src/test-setup.ts'],
    testTimeout: 20_000,
  },
});
