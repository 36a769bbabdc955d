import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Each file drives its own Chromium; two at a time suits a two-core machine.
    maxWorkers: 2,
  },
});
