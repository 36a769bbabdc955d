import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    sequence: { groupOrder: 0 },
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
