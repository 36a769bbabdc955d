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
