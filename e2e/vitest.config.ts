import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    setupFiles: ['./setup.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    // A page under a loaded CI machine may take seconds to show what a poll waits for (the default is 1 s);
    // Playwright's own waits already allow 20 s.
    expect: { poll: { timeout: 10_000, interval: 100 } },
    // Files share modules within a worker, so one Chromium serves every file of it (support.ts). Each file
    // starts a server of its own on a copy of the seeded database, so files run side by side (two workers,
    // the root config's maxWorkers). The E2E group runs after the unit and server tests.
    isolate: false,
    sequence: { groupOrder: 1 },
  },
});
