import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    sequence: { groupOrder: 0 },
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Files of a worker share the imported modules: each file builds its own app on its own data directory,
    // schema and cache prefix (test/helpers.ts), so nothing a test relies on lives in module state, and
    // loading the whole server once per worker instead of once per file halves the suite's time.
    // A test that changes something global (fake timers, the process time zone) puts it back.
    isolate: false,
  },
});
