import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldIndexName, indexedColumns, MAX_FIELD_INDEXES } from '../src/platform/diy/data-table.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 5 §10, record lists of large forms: publishing indexes the columns that lists filter by (and the
 * unique fields that every submission looks up), on both databases, and the page reads ids first and then
 * the page's rows — totals, order and deep pages must stay exactly what a plain query gives.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;

const options = (n: number) => ({
  source: 'options',
  items: Array.from({ length: n }, (_, i) => ({ value: `v${i}`, label: `选项${i}` })),
});

const DESIGN = {
  fields: [
    { id: 'sec', type: 'section', label: '分组' },
    { id: 'name', type: 'text', label: '名称', maxLength: 40 },
    { id: 'code', type: 'text', label: '代码', unique: 'form' },
    { id: 'memo', type: 'textarea', label: '备注' },
    { id: 'kind', type: 'select', label: '类型', options: options(5) },
    { id: 'tags', type: 'multiSelect', label: '标签', options: options(3) },
    { id: 'day', type: 'date', label: '日期' },
    { id: 'qty', type: 'integer', label: '数量' },
    { id: 'price', type: 'money', label: '金额' },
    { id: 'who', type: 'user', label: '联系人' },
    { id: 'team', type: 'user', label: '成员', multiple: true },
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
};

async function indexesOf(formId: number): Promise<string[]> {
  const table = `diy_data_${formId}`;
  const rows =
    t.app.ctx.dialect === 'postgres'
      ? await sql<{ name: string }>`select indexname as name from pg_indexes
          where schemaname = current_schema() and tablename = ${table}`.execute(t.app.ctx.db)
      : await sql<{ name: string }>`select name from sqlite_master
          where type = 'index' and tbl_name = ${table} and sql is not null`.execute(t.app.ctx.db);
  return rows.rows.map((r) => r.name).sort();
}

async function newForm(title: string, design: unknown = DESIGN): Promise<number> {
  const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title,
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id, design, publish: true });
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
});

afterAll(async () => {
  await t?.close();
});

describe('indexes created at publishing', () => {
  it('indexes unique fields and filterable scalar fields, not free text, decimals or JSON values', async () => {
    const id = await newForm('索引表');
    const field = (column: string) => fieldIndexName(id, column);
    expect(await indexesOf(id)).toEqual(
      expect.arrayContaining([
        `ix_diy_data_${id}_live`,
        field('f_code'),
        field('f_kind'),
        field('f_day'),
        field('f_qty'),
        field('f_who'),
        field('f_sn'),
      ]),
    );
    const names = await indexesOf(id);
    for (const column of ['f_name', 'f_memo', 'f_tags', 'f_price', 'f_team']) {
      expect(names).not.toContain(field(column));
    }

    // A later version: a new field gets its index; a field whose kind changes gets one on its new column.
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: {
        fields: [
          ...DESIGN.fields.filter((f) => f.id !== 'qty'),
          { id: 'qty', type: 'text', label: '数量', unique: 'form' },
          { id: 'yr', type: 'year', label: '年度' },
        ],
      },
      publish: true,
    });
    const after = await indexesOf(id);
    expect(after).toEqual(expect.arrayContaining([field('f_yr'), field('f_qty_2'), field('f_qty')]));
  });

  it('keeps to MAX_FIELD_INDEXES, unique fields first, and names indexes from checked identifiers', () => {
    const fields = Array.from({ length: MAX_FIELD_INDEXES + 4 }, (_, i) => ({
      id: `d${i}`,
      type: 'date' as const,
      label: `日期${i}`,
    }));
    const design = {
      fields: [...fields, { id: 'key', type: 'text' as const, label: '键', unique: 'form' as const }],
    };
    const columns = design.fields.map((f) => ({
      fieldId: f.id,
      columnName: `f_${f.id}`,
      storageKind: 'text' as const,
      createdVersion: 1,
    }));
    const picked = indexedColumns(design as never, columns);
    expect(picked).toHaveLength(MAX_FIELD_INDEXES);
    expect(picked[0]).toEqual({ column: 'f_key', use: 'lookup' });
    expect(picked[1]).toEqual({ column: 'f_d0', use: 'list' });
    expect(picked.map((i) => i.column)).not.toContain(`f_d${MAX_FIELD_INDEXES - 1}`);
    expect(fieldIndexName(12, 'f_kind_2')).toBe('ix_diy_data_12_f_kind_2');
    expect(() => fieldIndexName(12, 'f_kind; drop table x')).toThrow();
    expect(fieldIndexName(Number.MAX_SAFE_INTEGER, `f_${'a'.repeat(24)}_9999`).length).toBeLessThanOrEqual(
      63,
    );
  });

  it('gives a clone with records the same indexes', async () => {
    const id = await newForm('克隆索引源');
    const copy = await api.ok<number>(admin, 'POST', '/api/diyTable/clone', {
      id,
      title: '克隆索引',
      withRecords: true,
    });
    const own = (await indexesOf(id)).map((n) => n.replace(`_${id}_`, '_X_'));
    const cloned = (await indexesOf(copy)).map((n) => n.replace(`_${copy}_`, '_X_'));
    expect(cloned).toEqual(own);
  });

  it('answers the filters of a list from the index on SQLite (no table scan)', async () => {
    if (t.app.ctx.dialect !== 'sqlite') return;
    const id = await newForm('查询计划');
    const plan = async (where: string) =>
      (
        await sql<{ detail: string }>`${sql.raw(
          `explain query plan select count(*) from diy_data_${id} where is_delete = 0 and tenant_id = 1 and ${where}`,
        )}`.execute(t.app.ctx.db)
      ).rows
        .map((r) => r.detail)
        .join(' | ');
    expect(await plan("f_kind = 'v1'")).toContain(`COVERING INDEX ${fieldIndexName(id, 'f_kind')}`);
    expect(await plan("f_day between '2026-01-01' and '2026-01-31'")).toContain(
      `COVERING INDEX ${fieldIndexName(id, 'f_day')}`,
    );
    const unique = (
      await sql<{ detail: string }>`${sql.raw(
        `explain query plan select id from diy_data_${id} where is_delete = 0 and f_code = 'x' limit 1`,
      )}`.execute(t.app.ctx.db)
    ).rows
      .map((r) => r.detail)
      .join(' | ');
    expect(unique).toContain(fieldIndexName(id, 'f_code'));
    expect(unique).not.toMatch(/^SCAN/);
  });
});

describe('paging many records', () => {
  it('pages by ids first yet answers exactly the totals, order and deep pages of the plain query', async () => {
    const id = await newForm('分页表');
    const db = t.app.ctx.db;
    const form = await db
      .selectFrom('diy_table')
      .select('tenant_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: 450 }, (_, i) => ({
      id: 5_000_000 + i,
      tenant_id: form.tenant_id,
      version: 1,
      status: 2,
      create_time: `2026-01-01 00:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
      is_delete: i % 10 === 9 ? 1 : 0,
      f_name: `记录${i}`,
      f_code: `C${i}`,
      f_kind: `v${i % 5}`,
      f_day: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}`,
      f_qty: (i * 37) % 100,
    }));
    for (let i = 0; i < rows.length; i += 100) {
      await db
        .insertInto(`diy_data_${id}` as never)
        .values(rows.slice(i, i + 100) as never)
        .execute();
    }
    const live = rows.filter((r) => r.is_delete === 0);
    const page = (body: Record<string, unknown>) =>
      api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${id}/page`, body);

    const kindV2 = live.filter((r) => r.f_kind === 'v2').sort((a, b) => b.id - a.id);
    const deep = await page({ page: 4, pageSize: 20, filters: [{ field: 'kind', op: 'eq', value: 'v2' }] });
    expect(deep.total).toBe(kindV2.length);
    expect(deep.items.map((r) => r.id)).toEqual(kindV2.slice(60, 80).map((r) => r.id));
    expect(deep.items[0]?.values).toMatchObject({ name: kindV2[60]?.f_name, kind: 'v2' });

    const inRange = live
      .filter((r) => r.f_day >= '2026-01-05' && r.f_day <= '2026-01-09')
      .sort((a, b) => a.f_qty - b.f_qty || b.id - a.id);
    const sorted = await page({
      page: 2,
      pageSize: 15,
      field: 'qty',
      order: 'ascending',
      filters: [{ field: 'day', op: 'between', value: ['2026-01-05', '2026-01-09'] }],
    });
    expect(sorted.total).toBe(inRange.length);
    expect(sorted.items.map((r) => r.id)).toEqual(inRange.slice(15, 30).map((r) => r.id));

    const last = await page({ page: Math.ceil(live.length / 50), pageSize: 50 });
    expect(last.total).toBe(live.length);
    const byId = [...live].sort((a, b) => b.id - a.id);
    expect(last.items.map((r) => r.id)).toEqual(byId.slice((last.page - 1) * 50).map((r) => r.id));
    const beyond = await page({ page: 99, pageSize: 50 });
    expect(beyond).toMatchObject({ total: live.length, items: [] });

    const list = await api.ok<DiyRecord[]>(admin, 'GET', `/api/diyData/${id}/list`);
    expect(list.map((r) => r.id)).toEqual(byId.map((r) => r.id));
  });
});
