/**
 * `npm run bench:identity -w bench`: seeds 100,000 users and a 10,000-node org tree into a temporary SQLite
 * database beside the demo district, then times the users page search (200 varied searches: keyword,
 * org subtree, status, deep pages, sorted) as the tenant admin and as a scope-2 leader, and the org tree
 * (`treeAll`), through the real HTTP routes. Prints p50 / p99; the targets (issue 3 §8) are user search
 * p50 under 50 ms and the org tree under 200 ms. Nothing here asserts a timing.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { login, setConfig } from '../apps/server/test/helpers.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const ORGS = Number(process.env.BENCH_ORGS ?? 10_000);
const SURNAMES =
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华建国文辉鹏晨宇浩然子轩欣怡梓涵雨萱';

const pick = (text: string, i: number) => text[i % text.length] as string;

async function insertBatched<T extends object>(
  app: App,
  table: string,
  rows: T[],
  size = 200,
): Promise<void> {
  await app.ctx.db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += size) {
      await trx
        .insertInto(table as 'sys_user')
        .values(rows.slice(i, i + size) as never)
        .execute();
    }
  });
}

/** Grows the demo district's org tree to `ORGS` nodes below its streets: communities → grids → buildings. */
async function seedOrgs(app: App): Promise<number[]> {
  const db = app.ctx.db;
  const admin = await db
    .selectFrom('sys_user')
    .selectAll()
    .where('account', '=', 'admin')
    .executeTakeFirstOrThrow();
  const root = await db
    .selectFrom('sys_org')
    .selectAll()
    .where('tenant_id', '=', admin.tenant_id)
    .where('pid', '=', 0)
    .executeTakeFirstOrThrow();
  const existing = await db
    .selectFrom('sys_org')
    .select('id')
    .where('tenant_id', '=', admin.tenant_id)
    .execute();
  const now = '2026-11-21 09:00:00';
  const rows: Record<string, unknown>[] = [];
  const ids: number[] = [];
  // Below the district's real streets, so that a street leader's scope is a large subtree too.
  const streets = await db
    .selectFrom('sys_org')
    .selectAll()
    .where('pid', '=', root.id)
    .where('type', '=', 'street')
    .execute();
  let level: { id: number; fullIds: string; fullNames: string; level: number }[] = streets.map((o) => ({
    id: o.id,
    fullIds: o.full_ids,
    fullNames: o.full_names,
    level: o.level,
  }));
  const fanOut = [5, 20, 20];
  const typeByLevel = ['community', 'grid', 'grid', 'grid'];
  let n = existing.length;
  for (let depth = 0; n < ORGS; depth++) {
    const next: typeof level = [];
    const fan = fanOut[depth] ?? 10;
    for (const parent of level) {
      for (let k = 0; k < fan && n < ORGS; k++, n++) {
        const id = app.ctx.newId();
        const name = `压测单元${depth + 1}-${next.length + 1}`;
        const fullIds = `${parent.fullIds},${id}`;
        const fullNames = `${parent.fullNames}/${name}`;
        rows.push({
          id,
          create_time: now,
          is_delete: 0,
          tenant_id: admin.tenant_id,
          pid: parent.id,
          code: `bench${n}`,
          name,
          type: typeByLevel[depth] ?? 'grid',
          level: parent.level + 1,
          full_ids: fullIds,
          full_names: fullNames,
          order_no: k + 1,
          status: 1,
        });
        ids.push(id);
        next.push({ id, fullIds, fullNames, level: parent.level + 1 });
      }
    }
    level = next;
  }
  await insertBatched(app, 'sys_org', rows, 300);
  return ids;
}

async function seedUsers(app: App, orgIds: number[]): Promise<void> {
  const db = app.ctx.db;
  const template = await db
    .selectFrom('sys_user')
    .selectAll()
    .where('account', '=', 'fgwstaff')
    .executeTakeFirstOrThrow();
  const staffRole = await db
    .selectFrom('sys_user_role')
    .select('role_id')
    .where('user_id', '=', template.id)
    .executeTakeFirstOrThrow();
  const users: Record<string, unknown>[] = [];
  const links: Record<string, unknown>[] = [];
  for (let i = 0; i < USERS; i++) {
    const id = app.ctx.newId();
    users.push({
      ...template,
      id,
      account: `bench${String(i).padStart(6, '0')}`,
      real_name: `${pick(SURNAMES, i * 7)}${pick(GIVEN, i * 13)}${i % 3 === 0 ? pick(GIVEN, i * 17) : ''}`,
      phone: `139${String(10_000_000 + i).slice(-8)}`,
      org_id: orgIds[i % orgIds.length],
      status: i % 50 === 0 ? 2 : 1,
      order_no: i % 1000,
    });
    links.push({ id: app.ctx.newId(), user_id: id, role_id: staffRole.role_id });
  }
  await insertBatched(app, 'sys_user', users, 200);
  await insertBatched(app, 'sys_user_role', links, 1000);
}

function percentile(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function timed(app: App, token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const started = performance.now();
  const response = await app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
  const elapsed = performance.now() - started;
  const envelope = response.json() as { code: number; result: unknown };
  if (envelope.code !== 200)
    throw new Error(`${method} ${url} ${JSON.stringify(payload)}: ${response.body.slice(0, 300)}`);
  return { elapsed, result: envelope.result };
}

function searches(orgIds: number[]): object[] {
  const list: object[] = [];
  for (let i = 0; i < 200; i++) {
    const kind = i % 8;
    if (kind === 0) list.push({ page: 1, pageSize: 20 });
    else if (kind === 1) list.push({ keyword: pick(SURNAMES, i), pageSize: 20 });
    else if (kind === 2) list.push({ keyword: `${pick(SURNAMES, i)}${pick(GIVEN, i * 3)}`, pageSize: 20 });
    else if (kind === 3) list.push({ keyword: `bench0${String(i * 37).padStart(5, '0')}`, pageSize: 20 });
    else if (kind === 4) list.push({ orgId: orgIds[(i * 11) % 30], pageSize: 20 });
    else if (kind === 5) list.push({ orgId: orgIds[(i * 97) % orgIds.length], pageSize: 20 });
    else if (kind === 6) list.push({ status: 2, page: 3, pageSize: 20 });
    else list.push({ page: 200 + i, pageSize: 20, field: 'account', order: 'ascending' });
  }
  return list;
}

/**
 * Broad keywords (issue 18): `bench0<d>` matches the 10,000 accounts bench0d0000…bench0d9999, so the count and
 * the first page both have 10,000 candidates to go through; target p50 < 30 ms.
 */
async function broadSearch(app: App, token: string, account: string): Promise<void> {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < 50; i++) {
    const input = { keyword: `bench0${i % 10}`, pageSize: 20, page: 1 + (i % 3) };
    const { elapsed, result } = await timed(app, token, 'POST', '/api/sysUser/page', input);
    times.push(elapsed);
    total += (result as { total: number }).total;
  }
  console.log(
    `users page (${account}), broad keyword, 50 searches of ${(total / 50).toFixed(0)} matches on average: ` +
      `p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms (target p50 < 30 ms)`,
  );
}

/** The users table and its search index, in MB (SQLite `dbstat`, PostgreSQL relation sizes). */
async function userSizes(app: App): Promise<string> {
  const db = app.ctx.db;
  const mb = (n: unknown) => (Number(n ?? 0) / 1024 / 1024).toFixed(1);
  if (app.ctx.dialect === 'postgres') {
    const { rows } = await sql<{ t: string; i: string }>`select pg_table_size('sys_user'::regclass) as t,
      (select sum(pg_relation_size(indexname::regclass)) from pg_indexes
        where tablename = 'sys_user' and indexname like 'tg\_%') as i`.execute(db);
    return `sys_user ${mb(rows[0]?.t)} MB, trigram indexes ${mb(rows[0]?.i)} MB`;
  }
  const size = async (pattern: string) =>
    (
      await sql<{
        n: number;
      }>`select coalesce(sum(pgsize), 0) as n from dbstat where name like ${pattern}`.execute(db)
    ).rows[0]?.n;
  return `sys_user ${mb(await size('sys_user'))} MB, FTS5 index ${mb(await size('sys_user_fts%'))} MB`;
}

/**
 * `BENCH_DATABASE_URL` runs on PostgreSQL, in a schema of its own (made with psql, dropped at the end);
 * otherwise on a temporary SQLite database.
 */
function database(): { env: Record<string, string>; drop: () => void } {
  const base = process.env.BENCH_DATABASE_URL;
  if (!base) return { env: {}, drop: () => undefined };
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  execFileSync('psql', [
    base,
    '-qc',
    `create schema ${schema}; create extension if not exists pg_trgm with schema public;`,
  ]);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    env: { DATABASE_URL: url.toString() },
    drop: () => execFileSync('psql', [base, '-qc', `drop schema if exists ${schema} cascade`]),
  };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-bench-identity-'));
  const target = database();
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...target.env });
  const app = await buildApp({ config, logger: false, regionSource: null });
  try {
    await setConfig(app, 'sys_captcha', 'false');
    const seeded = performance.now();
    const orgIds = await seedOrgs(app);
    await seedUsers(app, orgIds);
    // Fresh statistics, as a running district database has them; on PostgreSQL also the vacuum that autovacuum
    // runs after many inserts (13+), which moves the GIN indexes' pending entries into the indexes proper.
    await sql.raw(app.ctx.dialect === 'postgres' ? 'vacuum analyze sys_user' : 'analyze').execute(app.ctx.db);
    if (app.ctx.dialect === 'postgres') await sql`analyze`.execute(app.ctx.db);
    console.log(
      `seeded ${USERS} users and ${orgIds.length} extra orgs in ${((performance.now() - seeded) / 1000).toFixed(1)} s on ${app.ctx.dialect}; ${await userSizes(app)}`,
    );

    for (const account of ['admin', 'njdleader']) {
      const token = (await login(app, account)).accessToken;
      const list = searches(orgIds);
      for (const input of list.slice(0, 10)) await timed(app, token, 'POST', '/api/sysUser/page', input);
      const times: number[] = [];
      let total = 0;
      for (const input of list) {
        const { elapsed, result } = await timed(app, token, 'POST', '/api/sysUser/page', input);
        times.push(elapsed);
        total += (result as { total: number }).total;
      }
      console.log(
        `users page (${account}), ${times.length} searches over ${USERS} users (${total} matches in all): ` +
          `p50 ${percentile(times, 0.5).toFixed(1)} ms, p99 ${percentile(times, 0.99).toFixed(1)} ms (target p50 < 50 ms)`,
      );
      await broadSearch(app, token, account);

      const tree: number[] = [];
      for (let i = 0; i < 30; i++) tree.push((await timed(app, token, 'GET', '/api/sysOrg/treeAll')).elapsed);
      console.log(
        `org tree (${account}), ${tree.length} loads: first ${tree[0]?.toFixed(1)} ms, ` +
          `p50 ${percentile(tree, 0.5).toFixed(1)} ms, max ${percentile(tree, 1).toFixed(1)} ms (target < 200 ms)`,
      );
    }
  } finally {
    await app.close();
    target.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
