import { type CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID } from '../src/db/seeds/seed.ts';
import { auditWriterOf, flushAudit } from '../src/platform/audit/audit.ts';
import { LOG_COLUMNS, type LogTable } from '../src/platform/audit/log-insert.ts';
import { maskParams } from '../src/platform/audit/mask.ts';
import { createAuditWriter } from '../src/platform/audit/writer.ts';
import type { AppContext } from '../src/platform/context.ts';
import type { Db } from '../src/platform/db/db.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.app.ctx.db;
const visit = (account: string, id = t.app.ctx.newId()) => ({
  id,
  create_time: formatDateTime(),
  is_delete: 0,
  tenant_id: DEFAULT_TENANT_ID,
  account,
  action: 'login',
  status: 1,
});
const visits = async (account: string) =>
  Number(
    (
      await db()
        .selectFrom('sys_log_vis')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account', '=', account)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function tableColumns(table: LogTable): Promise<string[]> {
  if (t.app.ctx.dialect === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db());
    return rows.rows.map((r) => r.name);
  }
  const rows = await sql<{ column_name: string }>`
    select column_name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(db());
  return rows.rows.map((r) => r.column_name);
}

describe('audit writer', () => {
  it('binds every column of each log table', async () => {
    for (const table of Object.keys(LOG_COLUMNS) as LogTable[]) {
      expect([...LOG_COLUMNS[table]].sort(), table).toEqual((await tableColumns(table)).sort());
    }
  });

  it('writes an operation row with every field of the request', async () => {
    const { accessToken } = await login(t.app, 'superadmin');
    await flushAudit(t.app.ctx);
    await db().deleteFrom('sys_log_op').execute();
    const ua =
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
    const response = await authed(t.app, accessToken, {
      method: 'POST',
      url: '/api/sysConfig/batchUpdate?from=bench',
      headers: { 'user-agent': ua },
      payload: [{ code: 'sys_web_icp', value: '沪ICP备00000000号' }],
    });
    expect(body(response).code).toBe(200);
    await flushAudit(t.app.ctx);
    const rows = await db().selectFrom('sys_log_op').selectAll().execute();
    expect(rows).toHaveLength(1);
    const admin = await db()
      .selectFrom('sys_user')
      .select(['id', 'real_name', 'tenant_id'])
      .where('account', '=', 'superadmin')
      .executeTakeFirstOrThrow();
    expect(rows[0]).toMatchObject({
      create_user_id: admin.id,
      create_user_name: admin.real_name,
      update_time: null,
      is_delete: 0,
      tenant_id: admin.tenant_id,
      user_id: admin.id,
      account: 'superadmin',
      real_name: admin.real_name,
      ip: '127.0.0.1',
      browser: 'Safari 17',
      os: 'macOS 10.15.7',
      user_agent: ua,
      http_method: 'POST',
      route_url: '/api/sysConfig/batchUpdate',
      url: '/api/sysConfig/batchUpdate?from=bench',
      controller: 'sysConfig',
      action: 'batchUpdate',
      code: '200',
      status: 1,
      message: null,
    });
    expect(rows[0]?.elapsed).toBeGreaterThanOrEqual(0);
    expect(rows[0]?.trace_id).toBeTruthy();
    expect(rows[0]?.create_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(JSON.parse(rows[0]?.params ?? '')).toEqual([{ code: 'sys_web_icp', value: '沪ICP备00000000号' }]);
  });

  it('never writes inside an open request transaction, so a rollback keeps the logs', async () => {
    const writer = auditWriterOf(t.app.ctx);
    if (!writer) throw new Error('no audit writer');
    let flushing: Promise<void> = Promise.resolve();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.selectFrom('sys_config').select('id').limit(1).execute();
          writer.enqueue('sys_log_vis', visit('during-rollback'));
          flushing = writer.flush();
          // Let a flush that ignores the open transaction run now.
          await new Promise((resolve) => setImmediate(resolve));
          throw new Error('roll back');
        }),
    ).rejects.toThrow('roll back');
    await flushing;
    await flushAudit(t.app.ctx);
    expect(await visits('during-rollback')).toBe(1);
  });

  it('loses only the row the database refuses, and counts it', async () => {
    const writer = createAuditWriter(t.app.ctx, { batchSize: 1000, intervalMs: 60_000 });
    const taken = t.app.ctx.newId();
    await db().insertInto('sys_log_vis').values(visit('refused-first', taken)).execute();
    writer.enqueue('sys_log_vis', visit('refused-before'));
    writer.enqueue('sys_log_vis', visit('refused-duplicate', taken));
    writer.enqueue('sys_log_vis', visit('refused-after'));
    await writer.close();
    expect(writer.failed).toBe(1);
    expect(await visits('refused-before')).toBe(1);
    expect(await visits('refused-after')).toBe(1);
    expect(await visits('refused-duplicate')).toBe(0);
  });

  it('keeps a batch the database cannot take during an outage and writes it once the database is back', async () => {
    // A database handle that is unreachable until `down` turns false (the PostgreSQL path of the writer).
    let down = true;
    const inserts: unknown[][] = [];
    const outage = {
      executeQuery: async (query: CompiledQuery) => {
        if (down) throw new Error('Connection terminated unexpectedly');
        inserts.push([...query.parameters]);
        return { rows: [] };
      },
    } as unknown as Db;
    const log = { error: () => undefined, warn: () => undefined, info: () => undefined };
    const ctx = { ...t.app.ctx, db: outage, log } as unknown as AppContext;
    const writer = createAuditWriter(ctx, { batchSize: 1000, intervalMs: 60_000 });
    writer.enqueue('sys_log_vis', visit('outage-1'));
    writer.enqueue('sys_log_op', { ...visit('outage-2'), http_method: 'POST', url: '/api/x', elapsed: 1 });
    await writer.flush();
    await writer.flush();
    expect({ queued: writer.queued, failed: writer.failed, written: inserts.length }).toEqual({
      queued: 2,
      failed: 0,
      written: 0,
    });
    down = false;
    await writer.close();
    expect({ queued: writer.queued, failed: writer.failed, written: inserts.length }).toEqual({
      queued: 0,
      failed: 0,
      written: 2,
    });
    expect(inserts.flat()).toEqual(expect.arrayContaining(['outage-1', 'outage-2']));
  });

  it('writes a large burst in chunks and keeps the column defaults', async () => {
    const writer = createAuditWriter(t.app.ctx, { batchSize: 100_000, intervalMs: 60_000 });
    for (let i = 0; i < 1200; i++) {
      const { is_delete: _, ...row } = visit('burst-chunks');
      writer.enqueue('sys_log_vis', row as ReturnType<typeof visit>);
    }
    await writer.close();
    expect(writer.failed).toBe(0);
    expect(await visits('burst-chunks')).toBe(1200);
    const deleted = await db()
      .selectFrom('sys_log_vis')
      .select('is_delete')
      .where('account', '=', 'burst-chunks')
      .groupBy('is_delete')
      .execute();
    expect(deleted).toEqual([{ is_delete: 0 }]);
  });
});

describe('maskParams without a copy', () => {
  it('writes a clean body as its plain JSON and still masks, cuts and shortens the rest', () => {
    const clean = { name: '张三', ids: [1, 2, 3], nested: { phone: '13800000000', empty: null } };
    expect(maskParams(clean)).toBe(JSON.stringify(clean));
    // An empty password is not a secret worth hiding; a filled one is, even deep down.
    expect(JSON.parse(maskParams({ password: '', a: { b: { token: 'x' } } }) ?? '')).toEqual({
      password: '',
      a: { b: { token: '******' } },
    });
    expect(JSON.parse(maskParams({ text: 'y'.repeat(2000) }) ?? '').text).toHaveLength(1025);
    const deep = JSON.parse(maskParams({ a: { b: { c: { d: { e: { f: { g: 1 } } } } } } }) ?? '');
    expect(deep.a.b.c.d.e.f).toBe('…');
    const long = JSON.parse(maskParams({ ids: Array.from({ length: 150 }, (_, i) => i) }) ?? '');
    expect(long.ids).toHaveLength(101);
  });
});
