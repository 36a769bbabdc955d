import type { DiyRecord, FormRow, RecordHistory } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/password-hash.ts';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import {
  apiCalls,
  authed,
  body,
  createTestApp,
  encrypt,
  login,
  TEST_HASH_COST,
  type TestApp,
} from './helpers.ts';

/**
 * Issue 5 §6, the recycle bin (`/api/diyRecycle/…`): deleted records and forms of the forms the caller
 * administers, restore (records wait for their form), purge behind the operation password, all or nothing,
 * and other orgs' admins seeing nothing of it.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let leader: string;
let otherLeader: string;
let staff: string;
let formId: number;
const records: number[] = [];
const OP = 'Recycle#2026';

type Item = { kind: 'record' | 'form'; id: number; tableId: number };
type BinItem = Item & {
  title: string;
  summary: string | null;
  deleteTime: string;
  deleteUserName: string | null;
};

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '单位名称', required: true },
    { id: 'staff', type: 'integer', label: '人数' },
  ],
};

const bin = (token: string, filters: Record<string, unknown> = {}) =>
  api.ok<PageResult<BinItem>>(token, 'POST', '/api/diyRecycle/page', { page: 1, pageSize: 20, ...filters });
const restore = (token: string, items: Item[]) =>
  api.code(token, 'POST', '/api/diyRecycle/restore', { items });
const purge = (token: string, items: Item[], opPassword?: string) =>
  api.code(token, 'POST', '/api/diyRecycle/purge', {
    items,
    ...(opPassword === undefined ? {} : { opPassword: encrypt(t.app, opPassword) }),
  });
const record = (id: number, tableId = formId): Item => ({ kind: 'record', id, tableId });
const form = (id: number): Item => ({ kind: 'form', id, tableId: id });
const recordCount = async (id: number) =>
  (
    await t.app.ctx.db
      .selectFrom('diy_table')
      .select('record_count')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  ).record_count;

async function newForm(title: string): Promise<number> {
  const id = await api.ok<number>(leader, 'POST', '/api/diyTable/add', {
    title,
    fillers: { all: false, orgIds: [orgId('HPQ-FGW')], roleIds: [], userIds: [], enterprises: false },
  });
  await api.ok(leader, 'PUT', '/api/diyTable/design', { id, design: DESIGN, publish: true });
  return id;
}

let orgs: Record<string, number>;
const orgId = (code: string) => orgs[code] as number;

beforeAll(async () => {
  t = await createTestApp();
  orgs = Object.fromEntries(
    (await t.app.ctx.db.selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  leader = (await login(t.app, 'fgwleader')).accessToken;
  otherLeader = (await login(t.app, 'njdleader')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
  formId = await newForm('回收站测试表');
  for (const name of ['甲单位', '乙单位', '丙单位', '丁单位']) {
    records.push(
      await api.ok<number>(staff, 'POST', `/api/diyData/${formId}/add`, {
        values: { name, staff: 3 },
        submit: false,
      }),
    );
  }
  await api.ok(staff, 'DELETE', `/api/diyData/${formId}/delete`, { id: records[0] });
  await api.ok(leader, 'DELETE', `/api/diyData/${formId}/delete`, { ids: [records[1], records[2]] });
});

afterAll(async () => {
  await t?.close();
});

describe('the bin', () => {
  it('lists deleted records of the forms the caller administers, newest first', async () => {
    const page = await bin(leader);
    expect(page.total).toBe(3);
    expect(page.items.map((i) => [i.kind, i.id, i.tableId, i.title])).toEqual(
      expect.arrayContaining([
        ['record', records[0], formId, '回收站测试表'],
        ['record', records[1], formId, '回收站测试表'],
        ['record', records[2], formId, '回收站测试表'],
      ]),
    );
    const first = page.items.find((i) => i.id === records[0]) as BinItem;
    expect(first).toMatchObject({ summary: '甲单位', deleteUserName: '张伟' });
    expect(page.items.find((i) => i.id === records[1])?.deleteUserName).toBe('刘志强');
    const times = page.items.map((i) => i.deleteTime);
    expect(times).toEqual([...times].sort().reverse());
    expect((await bin(leader, { kind: 'form' })).total).toBe(0);
    const byDeleter = await bin(leader, { keyword: '刘志强' });
    expect(byDeleter.items.map((i) => i.id).sort()).toEqual([records[1], records[2]].sort());
    expect((await bin(leader, { keyword: '回收站' })).total).toBe(3);
    expect((await bin(leader, { tableId: 123 })).total).toBe(0);
    const paged = await bin(leader, { pageSize: 2, page: 2 });
    expect(paged).toMatchObject({ total: 3 });
    expect(paged.items).toHaveLength(1);
  });

  it('shows nothing of it to another org’s admin, who cannot act on it either', async () => {
    expect((await bin(otherLeader)).total).toBe(0);
    expect(await restore(otherLeader, [record(records[0] as number)])).toBe('F1014');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ op_password: await hashPassword(OP, TEST_HASH_COST) })
      .where('account', '=', 'njdleader')
      .execute();
    expect(await purge(otherLeader, [record(records[0] as number)], OP)).toBe('F1014');
    expect(await api.code(staff, 'POST', '/api/diyRecycle/page', { page: 1, pageSize: 10 })).toBe(403);
    expect(await restore(staff, [record(records[0] as number)])).toBe(403);
  });

  it('restores records, with a history step and the form’s count, all or nothing', async () => {
    expect(await recordCount(formId)).toBe(1);
    // Live record, unknown record, unknown form: not in the bin.
    expect(await restore(leader, [record(records[3] as number)])).toBe('F1014');
    expect(await restore(leader, [record(999_999)])).toBe('F1014');
    expect(await restore(leader, [record(records[0] as number, 888_888)])).toBe('F1014');
    expect(await restore(leader, [record(records[0] as number), record(records[3] as number)])).toBe('F1014');
    expect((await bin(leader)).total).toBe(3);

    expect(await restore(leader, [record(records[0] as number), record(records[0] as number)])).toBe(200);
    expect(await recordCount(formId)).toBe(2);
    const live = await api.ok<PageResult<DiyRecord>>(staff, 'POST', `/api/diyData/${formId}/page`, {
      page: 1,
      pageSize: 10,
    });
    expect(live.items.map((r) => r.values.name).sort()).toEqual(['丁单位', '甲单位']);
    const history = await api.ok<RecordHistory[]>(
      leader,
      'GET',
      `/api/diyData/${formId}/history?id=${records[0]}`,
    );
    expect(history.map((h) => h.action)).toEqual(['create', 'delete', 'restore']);
    expect(history[2]?.userName).toBe('刘志强');
    expect((await bin(leader)).total).toBe(2);
    expect(await restore(leader, [record(records[0] as number)])).toBe('F1014');
  });

  it('keeps the records of a deleted form until the form is back', async () => {
    await api.ok(leader, 'POST', '/api/diyTable/delete', { id: formId });
    const page = await bin(leader);
    expect(page.total).toBe(3);
    expect(page.items[0]).toMatchObject({
      kind: 'form',
      id: formId,
      tableId: formId,
      summary: '共 2 条记录',
    });
    expect(await restore(leader, [record(records[1] as number)])).toBe('F1015');
    expect(await restore(leader, [form(formId), record(records[1] as number)])).toBe(200);
    const list = await api.ok<FormRow[]>(leader, 'GET', '/api/diyTable/list');
    expect(list.some((f) => f.id === formId)).toBe(true);
    expect(await recordCount(formId)).toBe(3);
    expect(await restore(leader, [form(formId)])).toBe('F1014');
    expect(await restore(leader, [{ kind: 'form', id: formId, tableId: records[2] as number }])).toBe(
      'F1014',
    );
  });
});

describe('restoring a unique value', () => {
  it('refuses a record whose unique value a live record took meanwhile (D1006)', async () => {
    const id = await api.ok<number>(leader, 'POST', '/api/diyTable/add', {
      title: '唯一值测试表',
      fillers: { all: false, orgIds: [orgId('HPQ-FGW')], roleIds: [], userIds: [], enterprises: false },
    });
    const design = { fields: [{ id: 'code', type: 'text', label: '项目代码', unique: 'form' }] };
    await api.ok(leader, 'PUT', '/api/diyTable/design', { id, design, publish: true });
    const first = await api.ok<number>(staff, 'POST', `/api/diyData/${id}/add`, {
      values: { code: 'XM-001' },
      submit: true,
    });
    await api.ok(staff, 'DELETE', `/api/diyData/${id}/delete`, { id: first });
    const second = await api.ok<number>(staff, 'POST', `/api/diyData/${id}/add`, {
      values: { code: 'XM-001' },
      submit: true,
    });
    const refused = await api.envelope(leader, 'POST', '/api/diyRecycle/restore', {
      items: [record(first, id)],
    });
    expect(refused.code).toBe('D1006');
    expect(refused.message).toContain('XM-001');
    await api.ok(staff, 'DELETE', `/api/diyData/${id}/delete`, { id: second });
    expect(await restore(leader, [record(first, id)])).toBe(200);
    expect(await recordCount(id)).toBe(1);
  });
});

describe('purge', () => {
  it('needs the operation password', async () => {
    const item = record(records[2] as number);
    expect(await purge(leader, [item])).toBe('D1012');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ op_password: await hashPassword(OP, TEST_HASH_COST) })
      .where('account', '=', 'fgwleader')
      .execute();
    expect(await purge(leader, [item])).toBe('D1011');
    expect(await purge(leader, [item], 'Wrong#2026')).toBe('D1011');
    expect(
      await api.code(leader, 'POST', '/api/diyRecycle/purge', { items: [item], opPassword: 'garbage' }),
    ).toBe('D0010');
    expect((await bin(leader, { tableId: formId })).total).toBe(1);
  });

  it('removes a record and its history for good, all or nothing', async () => {
    const id = records[2] as number;
    expect(await purge(leader, [record(id), record(records[3] as number)], OP)).toBe('F1014');
    expect(await purge(leader, [record(id)], OP)).toBe(200);
    // biome-ignore lint/suspicious/noExplicitAny: data tables are not in the static schema.
    const db = t.app.ctx.db as any;
    expect(
      await db.selectFrom(dataTableName(formId)).select('id').where('id', '=', id).executeTakeFirst(),
    ).toBe(undefined);
    const steps = await t.app.ctx.db
      .selectFrom('diy_record_history')
      .select('id')
      .where('record_id', '=', id)
      .execute();
    expect(steps).toEqual([]);
    expect(await purge(leader, [record(id)], OP)).toBe('F1014');
    expect(await recordCount(formId)).toBe(3);
  });

  it('removes a form with its table, versions, columns, numbers, visits and history', async () => {
    const other = await newForm('整表清除测试');
    await api.ok(staff, 'POST', `/api/diyData/${other}/add`, { values: { name: '戊单位' }, submit: true });
    await api.ok(staff, 'POST', '/api/diyTable/clearTip', { id: other });
    // Only a deleted form can be purged.
    expect(await purge(leader, [form(other)], OP)).toBe('F1014');
    await api.ok(leader, 'POST', '/api/diyTable/delete', { id: other });
    const summaryIn = async (language: string) => {
      const response = await authed(t.app, leader, {
        method: 'POST',
        url: '/api/diyRecycle/page',
        headers: { 'accept-language': language },
        payload: { page: 1, pageSize: 20, keyword: '整表清除测试' },
      });
      return body<PageResult<BinItem>>(response).result?.items.find((i) => i.kind === 'form')?.summary;
    };
    expect(await summaryIn('zh-CN')).toBe('共 1 条记录');
    expect(await summaryIn('en')).toBe('1 record');
    expect(await purge(otherLeader, [form(other)], OP)).toBe('F1014');
    expect(await purge(leader, [form(other)], OP)).toBe(200);
    const db = t.app.ctx.db;
    for (const table of [
      'diy_table_version',
      'diy_table_column',
      'diy_table_seq',
      'diy_table_visit',
      'diy_record_history',
    ] as const) {
      const left = await db.selectFrom(table).select('id').where('table_id', '=', other).execute();
      expect(left, table).toEqual([]);
    }
    expect(
      await db.selectFrom('diy_table').select('id').where('id', '=', other).executeTakeFirst(),
    ).toBeUndefined();
    await expect(sql`select count(*) from ${sql.id(dataTableName(other))}`.execute(db)).rejects.toThrow();
    expect(await purge(leader, [form(other)], OP)).toBe('F1014');
    // The other form is untouched.
    expect(await recordCount(formId)).toBe(3);
  });
});

describe('a deleted record’s summary', () => {
  it('shows chosen options, dictionary values and orgs by their labels, not their stored codes', async () => {
    const id = await api.ok<number>(leader, 'POST', '/api/diyTable/add', {
      title: '企业类型测试表',
      fillers: { all: false, orgIds: [orgId('HPQ-FGW')], roleIds: [], userIds: [], enterprises: false },
    });
    const design = {
      fields: [
        { id: 'name', type: 'text', label: '企业名称' },
        {
          id: 'kind',
          type: 'select',
          label: '企业类型',
          options: { source: 'options', items: [{ value: 'branch', label: '分公司' }] },
        },
        { id: 'scale', type: 'radio', label: '规模以上', options: { source: 'dict', dictCode: 'yes_no' } },
        { id: 'note', type: 'text', label: '备注' },
      ],
    };
    await api.ok(leader, 'PUT', '/api/diyTable/design', { id, design, publish: true });
    const recordId = await api.ok<number>(staff, 'POST', `/api/diyData/${id}/add`, {
      values: { name: '外滩分公司', kind: 'branch', scale: '1', note: '第四个值不在摘要里' },
      submit: false,
    });
    await api.ok(leader, 'DELETE', `/api/diyData/${id}/delete`, { ids: [recordId] });
    const page = await bin(leader, { tableId: id });
    expect(page.items.map((i) => i.summary)).toEqual(['外滩分公司 / 分公司 / 是']);
  });
});
