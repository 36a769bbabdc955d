import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config/config.ts';
import { type Db, openDatabase } from '../src/platform/db/db.ts';
import { createTestEnv, freePort, type TestEnv } from './helpers.ts';

/**
 * Issue 4 §8: one leader runs the scheduled jobs, elected through the `sys_job_lease` row; when it dies
 * (SIGKILL: no release) another server process takes over, and a clean stop (SIGTERM) hands the lease over
 * at once. Real server processes (the TypeScript entry through tsx) on one database: the SQLite file of a
 * shared DATA_DIR, or the PostgreSQL schema of TEST_DATABASE_URL.
 */
const serverRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const LEASE_TTL_MS = 4_000;
const RENEW_MS = 1_000;

let env: TestEnv;
let db: Db;
const children: ChildProcess[] = [];

type Server = { child: ChildProcess; pid: number; nodeId: string; output: () => string };

async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, server?: Server) {
  // Bounded so that a broken election fails the test instead of hanging it; the bound is not a measurement.
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}\n${server?.output() ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts `src/main.ts` (as `npm start` runs the built one) on the shared database; waits for its heartbeat. */
async function startServer(): Promise<Server> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverRoot,
    env: {
      ...process.env,
      ...env.env,
      DATABASE_URL: env.env.DATABASE_URL ?? '',
      // Each process its own in-memory cache: the election goes through the database alone.
      REDIS_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JOB_LEASE_TTL_MS: String(LEASE_TTL_MS),
      JOB_LEASE_RENEW_MS: String(RENEW_MS),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const pid = child.pid as number;
  const server: Server = { child, pid, nodeId: '', output: () => output };
  await until(
    `server ${pid} listening`,
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}\n${output}`);
      try {
        return (await fetch(`http://127.0.0.1:${port}/health`)).ok;
      } catch {
        return false;
      }
    },
    server,
  );
  const row = await until(
    `heartbeat of ${pid}`,
    () =>
      db
        .selectFrom('sys_job_cluster')
        .select('node_id')
        .where('pid', '=', pid)
        .where('status', '=', 1)
        .executeTakeFirst(),
    server,
  );
  server.nodeId = row.node_id;
  return server;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

const holder = async () =>
  (await db
    .selectFrom('sys_job_lease')
    .select(['holder', 'expires_at'])
    .where('name', '=', 'scheduler')
    .executeTakeFirst()) ?? null;
const leaderIs = async (nodeId: string) => {
  const lease = await holder();
  return lease?.holder === nodeId && Number(lease.expires_at) > Date.now();
};
const scheduledRunsOf = async (nodeId: string) =>
  (
    await db
      .selectFrom('sys_job_record')
      .select('id')
      .where('job_id', '=', 'leaderTick')
      .where('source', '=', 'schedule')
      .where('node_id', '=', nodeId)
      .where('status', '=', 'succeeded')
      .execute()
  ).length;

beforeAll(async () => {
  env = await createTestEnv();
  db = openDatabase(loadConfig(env.env).database).db;
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited(child);
  }
  await db?.destroy();
  await env?.cleanup();
});

describe('scheduler leader election across processes', () => {
  it('keeps the default lease short enough for a takeover within 30 s', () => {
    const { leaseTtlMs, renewMs } = loadConfig({ DATA_DIR: env.dataDir }).jobs;
    expect(leaseTtlMs).toBe(15_000);
    expect(renewMs).toBe(5_000);
    expect(leaseTtlMs + renewMs).toBeLessThanOrEqual(30_000);
    // Even the longest lease allowed keeps it.
    const longest = loadConfig({ DATA_DIR: env.dataDir, JOB_LEASE_TTL_MS: '20000' }).jobs;
    expect(longest.leaseTtlMs + longest.renewMs).toBeLessThanOrEqual(30_000);
    expect(() => loadConfig({ DATA_DIR: env.dataDir, JOB_LEASE_TTL_MS: '60000' })).toThrow(
      /JOB_LEASE_TTL_MS/,
    );
    expect(() =>
      loadConfig({ DATA_DIR: env.dataDir, JOB_LEASE_TTL_MS: '3000', JOB_LEASE_RENEW_MS: '2000' }),
    ).toThrow(/JOB_LEASE_RENEW_MS/);
  });

  it('hands the scheduler to a second process when the leader dies, and at once when it stops cleanly', async () => {
    const first = await startServer();
    await until('the first process leads', () => leaderIs(first.nodeId), first);

    // A job firing every second, added behind the servers' backs (the leader picks new triggers up).
    const now = '2026-01-01 00:00:00';
    await db
      .insertInto('sys_job_detail')
      .values({
        id: 9_000_000_001,
        job_id: 'leaderTick',
        create_type: 1,
        handler: 'jobRecordRetention',
        timeout_seconds: 60,
        concurrent: 0,
        create_time: now,
        is_delete: 0,
      } as never)
      .execute();
    await db
      .insertInto('sys_job_trigger')
      .values({
        id: 9_000_000_002,
        job_id: 'leaderTick',
        trigger_id: 'everySecond',
        trigger_type: 'period',
        period_seconds: 1,
        status: 1,
        max_number_of_runs: 0,
        run_on_start: 0,
        number_of_runs: 0,
        number_of_errors: 0,
        create_time: now,
        is_delete: 0,
      } as never)
      .execute();
    await until(
      'the leader fires the trigger',
      async () => (await scheduledRunsOf(first.nodeId)) >= 2,
      first,
    );

    const second = await startServer();
    // The follower runs nothing while the leader lives.
    expect(await leaderIs(first.nodeId)).toBe(true);
    expect(await scheduledRunsOf(second.nodeId)).toBe(0);

    // Killed: no release. The follower takes over once the lease runs out.
    first.child.kill('SIGKILL');
    await exited(first.child);
    await until('the second process leads', () => leaderIs(second.nodeId), second);
    await until(
      'the new leader fires the trigger',
      async () => (await scheduledRunsOf(second.nodeId)) >= 2,
      second,
    );
    // The dead process is marked stopped in the cluster list by the new leader.
    await until(
      'the dead process marked stopped',
      async () =>
        (
          await db
            .selectFrom('sys_job_cluster')
            .select('status')
            .where('node_id', '=', first.nodeId)
            .executeTakeFirst()
        )?.status === 0,
      second,
    );
    // Exactly one process fires at a time: no firing of the trigger was taken twice.
    const records = await db
      .selectFrom('sys_job_record')
      .select(['node_id', 'start_time'])
      .where('job_id', '=', 'leaderTick')
      .execute();
    const trigger = await db
      .selectFrom('sys_job_trigger')
      .select('number_of_runs')
      .where('job_id', '=', 'leaderTick')
      .executeTakeFirstOrThrow();
    expect(records.length).toBeLessThanOrEqual(trigger.number_of_runs);

    // SIGTERM: the lease is released on the way out, before the process has exited.
    const third = await startServer();
    expect(await leaderIs(second.nodeId)).toBe(true);
    second.child.kill('SIGTERM');
    await exited(second.child);
    expect(second.child.exitCode).toBe(0);
    const lease = await holder();
    expect(lease?.holder === null || lease?.holder === third.nodeId).toBe(true);
    await until('the third process leads', () => leaderIs(third.nodeId), third);
    const signedOff = await db
      .selectFrom('sys_job_cluster')
      .select('status')
      .where('node_id', '=', second.nodeId)
      .executeTakeFirstOrThrow();
    expect(signedOff.status).toBe(0);

    third.child.kill('SIGTERM');
    await exited(third.child);
    expect((await holder())?.holder).toBeNull();
  }, 240_000);
});
