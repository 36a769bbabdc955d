import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // Each file drives its own Chromium; two at a time suits a two-core machine. The E2E group runs
    // after the unit and server tests so the browsers don't compete with them for the cores.
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
});
