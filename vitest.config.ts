import { defineConfig } from 'vitest/config';

const server = (name: string, env: Record<string, string>) => ({
  extends: './apps/server/vitest.config.ts',
  test: { name, root: './apps/server', env },
});

// The server suite always runs on the embedded SQLite database with the in-memory cache, and once more on
// PostgreSQL and Redis when TEST_DATABASE_URL / TEST_REDIS_URL point at them (as CI does).
const serviceLeg = process.env.TEST_DATABASE_URL || process.env.TEST_REDIS_URL;

export default defineConfig({
  test: {
    // Vitest's default is one worker less than the cores: one file at a time on the two-core CI machine. Two
    // side by side keep both cores busy (a test file rarely uses more than one; its waits on the database,
    // the cache or a page leave the other core to the next file). Every file is self-contained: its own
    // temp data directory, PostgreSQL schema and Redis key prefix (apps/server/test/helpers.ts), its own E2E
    // server on a copy of the seeded database (e2e/server.ts).
    maxWorkers: 2,
    projects: [
      'packages/contracts',
      server('server', { TEST_DATABASE_URL: '', TEST_REDIS_URL: '' }),
      ...(serviceLeg
        ? [
            server('server-postgres-redis', {
              TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
              TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? '',
            }),
          ]
        : []),
      'apps/web',
      'e2e',
    ],
  },
});
