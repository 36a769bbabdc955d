import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CONFIG_DEFAULTS } from '@shuzhi/contracts/config';
import type { Envelope } from '@shuzhi/contracts/envelope';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { decodeJwt, SignJWT } from 'jose';
import pg from 'pg';
import { expect } from 'vitest';
import { type BuildOptions, buildApp } from '../src/app.ts';
import { sm2Encrypt } from '../src/platform/auth/sm2.ts';
import { type AppConfig, loadConfig } from '../src/platform/config/config.ts';
import { forgetConfigValue } from '../src/platform/config/sys-config.ts';

/** Cheap argon2 for tests; production uses the OWASP baseline. */
export const TEST_HASH_COST = { memoryCost: 1024, timeCost: 1 };
export const DEFAULT_PASSWORD = CONFIG_DEFAULTS.sys_password;

/** A TCP port free on 127.0.0.1 right now, for a test that starts a server process of its own. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export type TestEnv = {
  dataDir: string;
  env: Record<string, string>;
  cachePrefix: string;
  cleanup(): Promise<void>;
};

/**
 * A fresh place to run an app: a temp DATA_DIR, and when TEST_DATABASE_URL / TEST_REDIS_URL are set, a
 * PostgreSQL schema of its own and a Redis key prefix of its own, so test files run in parallel.
 */
export async function createTestEnv(): Promise<TestEnv> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-test-'));
  // Tests sign in far more often than people do; the rate-limit test sets its own limits.
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_LOGIN: '100000',
    RATE_LIMIT_CAPTCHA: '100000',
  };
  const cachePrefix = `shuzhi-test:${randomBytes(6).toString('hex')}:`;
  let dropSchema: (() => Promise<void>) | null = null;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (pgUrl) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    // pg_trgm (the text-search index) lives in public, shared by the schemas of test files running side by
    // side: created in a test's own schema, dropping that schema would take the others' indexes with it.
    await client.query('create extension if not exists pg_trgm with schema public').catch(() => undefined);
    await client.end();
    const url = new URL(pgUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.DATABASE_URL = url.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  const redisUrl = process.env.TEST_REDIS_URL;
  if (redisUrl) env.REDIS_URL = redisUrl;
  return {
    dataDir,
    env,
    cachePrefix,
    async cleanup() {
      await dropSchema?.();
      if (redisUrl) await dropKeys(redisUrl, cachePrefix);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function dropKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

export type TestApp = {
  app: FastifyInstance;
  config: AppConfig;
  testEnv: TestEnv;
  close(): Promise<void>;
};

/**
 * Builds a seeded app on a fresh test environment. Captcha is off unless `captcha: true`, so tests can log
 * in directly; `env` adds or overrides configuration variables.
 */
export async function createTestApp(
  options: { env?: Record<string, string>; captcha?: boolean } & Partial<BuildOptions> = {},
): Promise<TestApp> {
  const testEnv = await createTestEnv();
  const config = loadConfig({ ...testEnv.env, ...options.env });
  const app = await buildApp({
    config,
    logger: false,
    cachePrefix: testEnv.cachePrefix,
    passwordHashing: TEST_HASH_COST,
    // No regions unless a test passes a fixture: the bundled data is far too much for every test file.
    regionSource: null,
    ...options,
  });
  if (!options.captcha) await setConfig(app, 'sys_captcha', 'false');
  return {
    app,
    config,
    testEnv,
    async close() {
      await app.close();
      await testEnv.cleanup();
    },
  };
}

export async function setConfig(app: FastifyInstance, code: string, value: string): Promise<void> {
  await app.ctx.db.updateTable('sys_config').set({ value }).where('code', '=', code).execute();
  await forgetConfigValue(app.ctx, code);
}

/** Encrypts like the web client does with the app's public key. */
export function encrypt(app: FastifyInstance, text: string): string {
  return sm2Encrypt(text, app.ctx.config.sm2.publicKey);
}

export function body<T = unknown>(response: LightMyRequestResponse): Envelope<T> {
  return response.json() as Envelope<T>;
}

export type Tokens = { accessToken: string; refreshToken: string; isDefPwd: boolean; isUpdatePwd: boolean };

export async function loginRequest(
  app: FastifyInstance,
  account: string,
  password: string = DEFAULT_PASSWORD,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/sysAuth/login',
    payload: { account, password: encrypt(app, password), ...extra },
    headers,
  });
}

/** The password the `login` helper changes a default or expired one to, as the user must (see below). */
export const CHANGED_PASSWORD = 'Changed@2026';

// Per app: accounts whose default password `login` has changed, so that later sign-ins use the new one.
const changedPasswords = new WeakMap<FastifyInstance, Set<string>>();

/** The password a seeded account signs in with in this app: CHANGED_PASSWORD once `login` changed it. */
export function passwordOf(app: FastifyInstance, account: string): string {
  return changedPasswords.get(app)?.has(account) ? CHANGED_PASSWORD : DEFAULT_PASSWORD;
}

/**
 * Signs in and returns the login result as it is, a password change owed or not (captcha must be off);
 * fails the test on any error. The password defaults to the account's current one (`passwordOf`).
 */
export async function loginAsIs(app: FastifyInstance, account: string, password?: string): Promise<Tokens> {
  const typed = password ?? passwordOf(app, account);
  const envelope = body<Tokens>(await loginRequest(app, account, typed));
  if (envelope.code !== 200 || !envelope.result) {
    throw new Error(`login ${account} failed: ${JSON.stringify(envelope)}`);
  }
  // The default password signed in: an administrator reset the account (or it was never changed).
  if (typed === DEFAULT_PASSWORD) changedPasswords.get(app)?.delete(account);
  return envelope.result;
}

/**
 * Logs a seeded user in (captcha must be off) and returns the tokens; fails the test on any error. An account
 * that must change its password first (isDefPwd / isUpdatePwd) does so the way a user must, to
 * CHANGED_PASSWORD, and signs in again; later calls for that account in the same app sign in with it.
 * Tests of the flags or of the forced change itself use `loginAsIs`.
 */
export async function login(app: FastifyInstance, account: string, password?: string): Promise<Tokens> {
  const typed = password ?? passwordOf(app, account);
  const tokens = await loginAsIs(app, account, typed);
  if (!tokens.isDefPwd && !tokens.isUpdatePwd) return tokens;
  const change = await authed(app, tokens.accessToken, {
    method: 'POST',
    url: '/api/sysUser/changePwd',
    payload: { passwordOld: encrypt(app, typed), passwordNew: encrypt(app, CHANGED_PASSWORD) },
  });
  if (body(change).code !== 200) throw new Error(`password change of ${account} failed: ${change.body}`);
  const changed = changedPasswords.get(app) ?? new Set<string>();
  changedPasswords.set(app, changed);
  changed.add(account);
  return loginAsIs(app, account, CHANGED_PASSWORD);
}

/** A GET/POST with the Bearer token. */
export function authed(app: FastifyInstance, token: string, options: InjectOptions) {
  return app.inject({
    ...options,
    headers: { ...(options.headers ?? {}), authorization: `Bearer ${token}` },
  });
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Signed-in calls for a test file whose app is created in `beforeAll` (hence the getter): the raw response,
 * its envelope, the result of a call that must succeed (the test fails with the envelope otherwise), and
 * the envelope code of a call expected to be refused.
 */
export function apiCalls(app: () => FastifyInstance) {
  const call = (token: string, method: Method, url: string, payload?: unknown) =>
    authed(app(), token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  const envelope = async <T>(token: string, method: Method, url: string, payload?: unknown) =>
    body<T>(await call(token, method, url, payload));
  const ok = async <T>(token: string, method: Method, url: string, payload?: unknown) => {
    const env = await envelope<T>(token, method, url, payload);
    expect(env.code, `${method} ${url} ${JSON.stringify(env)}`).toBe(200);
    return env.result as T;
  };
  const code = async (token: string, method: Method, url: string, payload?: unknown) =>
    (await envelope(token, method, url, payload)).code;
  return { call, envelope, ok, code };
}

/** A fresh captcha with its answer (read from the cache), as `{ codeId, code }` for a login body. */
export async function solvedCaptcha(app: FastifyInstance): Promise<{ codeId: string; code: string }> {
  const codeId = String(
    body<{ id: number }>(await app.inject({ url: '/api/sysAuth/captcha' })).result?.id ?? '',
  );
  return { codeId, code: (await app.ctx.cache.get<string>(`captcha:${codeId}`)) ?? '' };
}

/**
 * Signs in with a wrong password from `remoteAddress` until the sign-in throttling locks that source out of
 * the account (solving the captchas it asks for on the way); answers the codes seen.
 */
export async function lockOut(app: FastifyInstance, account: string, remoteAddress = '127.0.0.1') {
  const codes: unknown[] = [];
  for (let i = 0; i < 10 && codes.at(-1) !== 'D1027'; i++) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      remoteAddress,
      payload: { account, password: encrypt(app, 'Wrong@123456'), ...(await solvedCaptcha(app)) },
    });
    codes.push(body(response).code);
  }
  return codes;
}

/** Re-signs an access token's claims with an expiry in the past, as a client holds it after a while. */
export async function expiredToken(app: FastifyInstance, accessToken: string): Promise<string> {
  const claims = decodeJwt(accessToken);
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({ ...claims, exp: undefined, iat: undefined, nbf: undefined })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(past - 60)
    .setNotBefore(past - 60)
    .setExpirationTime(past)
    .sign(new TextEncoder().encode(app.ctx.config.jwtSecret));
}
