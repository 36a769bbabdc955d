import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { arraySource } from '../src/modules/region/region.source.ts';
import { sm2Encrypt } from '../src/platform/auth/sm2.ts';
import { type AppConfig, loadConfig } from '../src/platform/config/config.ts';
import { CHANGED_PASSWORD, DEFAULT_PASSWORD, freePort, setConfig, TEST_HASH_COST } from './helpers.ts';
import { REGION_FIXTURE } from './region.fixture.ts';

/**
 * Issue 14 §1: a real server process (the TypeScript entry through tsx) on a PostgreSQL database of its
 * own survives its connections being terminated (idle and under load) and the database refusing
 * connections for a while: 503 with the catalogue code during the outage, /health and /ready saying so,
 * recovery without a restart, nothing acknowledged lost, and the process never exits.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const serverRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUTAGE_MS = 10_000;
const WORKERS = 6;

let admin: pg.Client;
let dbName: string;
let dataDir: string;
let config: AppConfig;
let child: ChildProcess | null = null;
let output = '';
let base = '';
let token = '';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 60_000) {
  // A bound so that a server that never recovers fails the test instead of hanging it.
  const deadline = Date.now() + ms;
  for (;;) {
    if (!alive()) throw new Error(`the server exited while waiting: ${what}\n${output}`);
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}\n${output}`);
    await sleep(100);
  }
}

const terminateBackends = () =>
  admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [dbName],
  );

type Answer = { status: number; code: number | string | null };

async function call(path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers },
  });
  const text = await response.text();
  let code: number | string | null = null;
  try {
    code = (JSON.parse(text) as { code?: number | string }).code ?? null;
  } catch {
    code = null;
  }
  return { status: response.status, code };
}

const userPage = () => call('/api/sysUser/page?page=1&pageSize=5');

/** Concurrent requests until `stop` says so; counts each outcome. */
async function load(stop: () => boolean) {
  const counts = { sent: 0, ok: 0, unavailable: 0, other: [] as string[] };
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (!stop()) {
        counts.sent++;
        const answer = await userPage().catch((error: Error) => ({ status: -1, code: error.message }));
        if (answer.status === 200 && answer.code === 200) counts.ok++;
        else if (answer.status === 503 && answer.code === 503) counts.unavailable++;
        else counts.other.push(`${answer.status}/${answer.code}`);
      }
    }),
  );
  return counts;
}

function alive(): boolean {
  return child !== null && child.exitCode === null && child.signalCode === null;
}

describe.skipIf(!adminUrl)('database faults (PostgreSQL)', () => {
  beforeAll(async () => {
    const started = Date.now();
    admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    dbName = `shuzhi_fault_${randomBytes(5).toString('hex')}`;
    await admin.query(`create database ${dbName}`);
    dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-fault-'));
    const url = new URL(adminUrl as string);
    url.pathname = `/${dbName}`;
    const env = { DATA_DIR: dataDir, DATABASE_URL: url.toString(), LOG_LEVEL: 'silent' };
    config = loadConfig(env);

    // Migrated and seeded here, with cheap password hashes, no captcha and a few regions (so the server
    // skips its first-start import of the bundled ones), so the server starts quickly.
    const setup = await buildApp({
      config,
      logger: false,
      passwordHashing: TEST_HASH_COST,
      regionSource: arraySource(REGION_FIXTURE),
    });
    await setConfig(setup, 'sys_captcha', 'false');
    // The test is about faults, not the forced first password change: the super admin (whose parameters the
    // write below changes) is treated as having changed it.
    await setup.ctx.db
      .updateTable('sys_user')
      .set({ is_def_pwd: 0 })
      .where('account', '=', 'superadmin')
      .execute();
    await setup.close();

    const seeded = Date.now();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverRoot,
      env: {
        ...process.env,
        ...env,
        REDIS_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await until('the server answers /health', async () => (await fetch(`${base}/health`)).ok);
    console.log(
      `db-fault: database seeded in ${seeded - started} ms, server up in ${Date.now() - seeded} ms`,
    );

    // The super admin (whose parameters the write below changes) first replaces the default password, as
    // the server requires before it serves anything else.
    const signIn = async (password: string) => {
      const answer = await fetch(`${base}/api/sysAuth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ account: 'superadmin', password: sm2Encrypt(password, config.sm2.publicKey) }),
      });
      const envelope = (await answer.json()) as { code: number; result: { accessToken: string } };
      expect(envelope.code, output).toBe(200);
      return envelope.result.accessToken;
    };
    const first = await signIn(DEFAULT_PASSWORD);
    const change = await fetch(`${base}/api/sysUser/changePwd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${first}` },
      body: JSON.stringify({
        passwordOld: sm2Encrypt(DEFAULT_PASSWORD, config.sm2.publicKey),
        passwordNew: sm2Encrypt(CHANGED_PASSWORD, config.sm2.publicKey),
      }),
    });
    expect(((await change.json()) as { code: number }).code, output).toBe(200);
    token = await signIn(CHANGED_PASSWORD);
  }, 120_000);

  afterAll(async () => {
    if (child && alive()) {
      child.kill('SIGKILL');
      await new Promise((resolve) => child?.once('exit', resolve));
    }
    if (admin) {
      await admin.query(`alter database ${dbName} allow_connections true`).catch(() => undefined);
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('survives lost connections and an outage, answers 503 meanwhile and recovers by itself', async () => {
    const marker = `fault-${randomBytes(4).toString('hex')}`;
    const write = await call('/api/sysConfig/batchUpdate', {
      method: 'POST',
      body: JSON.stringify([{ code: 'sys_web_icp', value: marker }]),
    });
    expect(write).toEqual({ status: 200, code: 200 });
    expect(await userPage()).toEqual({ status: 200, code: 200 });

    // Idle: every pooled connection is terminated while nothing runs.
    await terminateBackends();
    await sleep(200);
    expect(alive(), output).toBe(true);
    const idleRecovered = await until('a request after the idle connections died', async () => {
      const answer = await userPage();
      return answer.status === 200 && answer.code === 200;
    });
    expect(idleRecovered).toBe(true);

    // Under load: backends terminated three times while requests run.
    let stopLoad = false;
    const underLoad = load(() => stopLoad);
    for (let i = 0; i < 3; i++) {
      await sleep(500);
      await terminateBackends();
    }
    await sleep(500);
    stopLoad = true;
    const loadCounts = await underLoad;
    expect(loadCounts.other, output).toEqual([]);
    expect(alive(), output).toBe(true);

    // Outage: the database refuses connections for OUTAGE_MS.
    await admin.query(`alter database ${dbName} allow_connections false`);
    await terminateBackends();
    const outageStart = Date.now();
    let stopOutage = false;
    const duringOutage = load(() => stopOutage);
    await sleep(2_000);
    const health = await fetch(`${base}/health`);
    const healthBody = await health.json();
    const ready = await fetch(`${base}/ready`);
    const readyBody = await ready.json();
    const refusedWrite = await call('/api/sysConfig/batchUpdate', {
      method: 'POST',
      body: JSON.stringify([{ code: 'sys_web_icp', value: 'during-outage' }]),
    });
    await sleep(Math.max(0, OUTAGE_MS - (Date.now() - outageStart)));
    stopOutage = true;
    const outageCounts = await duringOutage;
    expect(alive(), output).toBe(true);

    await admin.query(`alter database ${dbName} allow_connections true`);
    const reopened = Date.now();
    await until('a request after the outage', async () => {
      const answer = await userPage();
      return answer.status === 200 && answer.code === 200;
    });
    const recoverMs = Date.now() - reopened;
    const readyAfter = await fetch(`${base}/ready`);

    console.log(
      `db-fault: under load ${loadCounts.sent} requests, ${loadCounts.ok} ok, ${loadCounts.unavailable} 503; ` +
        `outage of ${OUTAGE_MS} ms: ${outageCounts.sent} requests, ${outageCounts.unavailable} 503, ` +
        `${outageCounts.ok} ok; recovered ${recoverMs} ms after the database reopened`,
    );

    expect(health.status).toBe(200);
    expect(healthBody).toEqual({ status: 'ok', database: 'down', cache: 'up' });
    expect(ready.status).toBe(503);
    expect(readyBody).toEqual({ status: 'unavailable', database: 'down', cache: 'up' });
    expect(refusedWrite).toEqual({ status: 503, code: 503 });
    expect(outageCounts.other, output).toEqual([]);
    expect(outageCounts.unavailable).toBeGreaterThan(0);
    expect(readyAfter.status).toBe(200);

    // The write acknowledged before the outage is there; the one refused during it is not.
    const check = new pg.Client({
      connectionString: config.database.kind === 'postgres' ? config.database.url : '',
    });
    await check.connect();
    try {
      const stored = await check.query<{ value: string }>(
        "select value from sys_config where code = 'sys_web_icp'",
      );
      expect(stored.rows[0]?.value).toBe(marker);
      // The operation log of the write refused during the outage was kept and written once the database was back.
      const logged = await until(
        'the operation log row of the refused write',
        async () => {
          const rows = await check.query<{ n: string }>(
            "select count(*) as n from sys_log_op where url like '%batchUpdate%' and code = '503'",
          );
          return Number(rows.rows[0]?.n) > 0;
        },
        15_000,
      );
      expect(logged).toBe(true);
    } finally {
      await check.end();
    }

    // A clean stop after all that: SIGTERM ends the process with 0.
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));
    child?.kill('SIGTERM');
    expect(await exited, output).toBe(0);
  }, 120_000);
});
