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
    // starts a server of its own on a copy of the seeded database. One file at a time: two side by side
    // passed every file but one whose dialog lagged under the doubled load; that stays to be made steady
    // before the E2E runs two wide. The E2E group runs after the unit and server tests.
    isolate: false,
    maxWorkers: 1,
    sequence: { groupOrder: 1 },
  },
});
