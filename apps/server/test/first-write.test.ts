import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { forgetAllConfigValues } from '../src/platform/config/sys-config.ts';
import { authed, body, createTestApp, login, TEST_HASH_COST, type TestApp } from './helpers.ts';

// Issue 14 §2: the first write that reads an uncached config value inside its transaction froze SQLite's only
// connection. A request that does not answer within this time counts as hung.
const ANSWER_MS = 5000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ANSWER_MS} ms`)), ANSWER_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(): Promise<TestApp> {
  const t = await createTestApp();
  cleanups.push(() => t.testEnv.cleanup());
  cleanups.push(() => t.app.close());
  return t;
}

/** A signed-in call that must answer in time; gives its envelope. */
async function post(app: FastifyInstance, token: string, url: string, payload: object) {
  return body<unknown>(await within(authed(app, token, { method: 'POST', url, payload }), `POST ${url}`));
}

/** The database still answers: a page of users through the API and a query of its own. */
async function stillAnswers(app: FastifyInstance, token: string) {
  const page = await post(app, token, '/api/sysUser/page', { pageSize: 5 });
  expect(page.code).toBe(200);
  const row = await within(
    app.ctx.db.selectFrom('sys_user').select('id').limit(1).executeTakeFirst(),
    'a query after the write',
  );
  expect(row?.id).toBeTypeOf('number');
}

describe('the first write after a start', () => {
  it('adds a user while the default password is not cached, and the database keeps answering', async () => {
    const t = await started();
    const admin = (await login(t.app, 'admin')).accessToken;
    // Signing in read sys_password; after a restart nothing is cached yet.
    await forgetAllConfigValues(t.app.ctx);
    const org = await t.app.ctx.db
      .selectFrom('sys_org')
      .select('id')
      .where('code', '=', 'HPQ-FGW')
      .executeTakeFirstOrThrow();

    const added = await post(t.app, admin, '/api/sysUser/add', {
      account: 'plainq123',
      realName: 'plain',
      orgId: org.id,
    });

    expect(added.code).toBe(200);
    expect(added.result).toBeTypeOf('number');
    await stillAnswers(t.app, admin);
    await login(t.app, 'plainq123');
  });

  it('adds a tenant as the first write after a restart, with a token from before it', async () => {
    const t = await started();
    const root = (await login(t.app, 'superadmin')).accessToken;
    await cleanups.pop()?.();
    const app = await buildApp({
      config: t.config,
      logger: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
      regionSource: null,
    });
    cleanups.push(() => app.close());

    const added = await post(app, root, '/api/sysTenant/add', {
      code: 'restart',
      name: '重启后',
      adminAccount: 'restartadmin',
    });

    expect(added.code).toBe(200);
    await stillAnswers(app, root);
    await login(app, 'restartadmin');
  });
});
