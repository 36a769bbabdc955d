import type { CollectResult, MyReportItem } from '@shuzhi/contracts/diy-collect';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 6 §5, favourites and the enterprise portal (`/api/diyTableCollect/…`): favourites only of forms the
 * caller may open, the favourites list in tableList's shape, the report list with the caller's org's record
 * figures, a form's detail, and refusals of bad input, other people's forms and another tenant's.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let qy: string;
let fgw: string;
let forms: Record<string, number>;
const QY_FORM = '企业基本情况登记表';
const GRID_FORM = '社区人口月报';

const id = (title: string) => forms[title] as number;
const collect = (token: string, body: unknown) =>
  api.envelope<CollectResult>(token, 'POST', '/api/diyTableCollect/collect', body);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  qy = (await login(t.app, 'qyfiller')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  const rows = await t.app.ctx.db.selectFrom('diy_table').select(['id', 'title']).execute();
  forms = Object.fromEntries(rows.map((r) => [r.title, r.id]));
});

afterAll(async () => {
  await t?.close();
});

describe('report list (myReports)', () => {
  it('lists the forms an enterprise fills with their enterprise’s records only', async () => {
    const items = await api.ok<MyReportItem[]>(qy, 'GET', '/api/diyTableCollect/myReports');
    expect(items.map((i) => i.title)).toEqual([QY_FORM]);
    const item = items[0] as MyReportItem;
    // The seed gives qyfiller's enterprise two of the four records (the others are qyfiller2's).
    expect(item.myRecordCount).toBe(2);
    expect(item.recordCount).toBe(4);
    expect(item.collected).toBe(false);
    expect(item.categoryName).toBe('企业填报');
    expect(item.myAuth.add).toBe(true);
    const mine = await t.app.ctx.db
      .selectFrom(dataTableName(item.id) as 'diy_table')
      .select(['id', 'status', 'submit_time'] as never[])
      .where('create_user_id', '=', (await userId('qyfiller')) as never)
      .execute();
    expect(mine).toHaveLength(2);
    const submits = (mine as unknown as { submit_time: string | null }[])
      .map((r) => r.submit_time)
      .filter((s): s is string => s !== null)
      .sort();
    expect(item.lastSubmitTime).toBe(submits.at(-1) ?? null);
  });

  it('reports the status of the latest changed record', async () => {
    const table = dataTableName(id(QY_FORM));
    const uid = await userId('qyfiller');
    const mine = (await t.app.ctx.db
      .selectFrom(table as 'diy_table')
      .select(['id', 'status'] as never[])
      .where('create_user_id', '=', uid as never)
      .orderBy('id' as never)
      .execute()) as unknown as { id: number; status: number }[];
    for (const record of mine) {
      await t.app.ctx.db
        .updateTable(table as 'diy_table')
        .set({ update_time: '2099-01-01 00:00:00' } as never)
        .where('id', '=', record.id)
        .execute();
      const [item] = await api.ok<MyReportItem[]>(qy, 'GET', '/api/diyTableCollect/myReports');
      expect(item?.latestStatus).toBe(record.status);
      await t.app.ctx.db
        .updateTable(table as 'diy_table')
        .set({ update_time: '2000-01-01 00:00:00' } as never)
        .where('id', '=', record.id)
        .execute();
    }
    expect(new Set(mine.map((r) => r.status)).size).toBe(2);
  });

  it('filters by category and keyword; other users see the forms they fill', async () => {
    const categoryId = (await api.ok<MyReportItem[]>(qy, 'GET', '/api/diyTableCollect/myReports'))[0]
      ?.categoryId as number;
    expect(
      await api.ok<MyReportItem[]>(qy, 'GET', `/api/diyTableCollect/myReports?classifyId=${categoryId}`),
    ).toHaveLength(1);
    expect(
      await api.ok<MyReportItem[]>(
        qy,
        'GET',
        `/api/diyTableCollect/myReports?classifyId=${categoryId + 99999}`,
      ),
    ).toEqual([]);
    expect(
      await api.ok<MyReportItem[]>(
        qy,
        'GET',
        `/api/diyTableCollect/myReports?keyword=${encodeURIComponent('企业')}`,
      ),
    ).toHaveLength(1);
    expect(
      await api.ok<MyReportItem[]>(
        qy,
        'GET',
        `/api/diyTableCollect/myReports?keyword=${encodeURIComponent('人口')}`,
      ),
    ).toEqual([]);
    const staff = await api.ok<MyReportItem[]>(fgw, 'GET', '/api/diyTableCollect/myReports');
    // The district's staff fill every demo form; fgwstaff's org has no record of the enterprise form.
    expect(staff.map((i) => i.title)).toEqual([QY_FORM, GRID_FORM, '安全生产检查记录']);
    expect(staff[0]).toMatchObject({ myRecordCount: 0, latestStatus: null, lastSubmitTime: null });
    expect(await api.code(qy, 'GET', '/api/diyTableCollect/myReports?classifyId=abc')).toBe(400);
  });
});

describe('favourites', () => {
  it('toggles, sets, and lists favourites in tableList’s shape', async () => {
    expect(await api.ok<FormItem[]>(qy, 'GET', '/api/diyTableCollect/list')).toEqual([]);
    expect((await collect(qy, { tableId: id(QY_FORM) })).result).toEqual({
      tableId: id(QY_FORM),
      collected: true,
    });
    const list = await api.ok<FormItem[]>(qy, 'GET', '/api/diyTableCollect/list');
    const tableList = await api.ok<FormItem[]>(qy, 'GET', '/api/diyTable/tableList');
    expect(list).toEqual(tableList.filter((i) => i.id === id(QY_FORM)));
    const [report] = await api.ok<MyReportItem[]>(qy, 'GET', '/api/diyTableCollect/myReports');
    expect(report?.collected).toBe(true);
    // Setting twice keeps one row; toggling takes it away.
    expect((await collect(qy, { tableId: id(QY_FORM), collect: true })).result?.collected).toBe(true);
    const rows = await t.app.ctx.db
      .selectFrom('diy_table_collect')
      .selectAll()
      .where('table_id', '=', id(QY_FORM))
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.user_id).toBe(await userId('qyfiller'));
    expect((await collect(qy, { tableId: id(QY_FORM) })).result?.collected).toBe(false);
    expect(await api.ok<FormItem[]>(qy, 'GET', '/api/diyTableCollect/list')).toEqual([]);
    expect((await collect(qy, { tableId: id(QY_FORM), collect: false })).result?.collected).toBe(false);
  });

  it('keeps favourites per user', async () => {
    await collect(fgw, { tableId: id(GRID_FORM), collect: true });
    expect((await api.ok<FormItem[]>(fgw, 'GET', '/api/diyTableCollect/list')).map((i) => i.id)).toEqual([
      id(GRID_FORM),
    ]);
    expect(await api.ok<FormItem[]>(qy, 'GET', '/api/diyTableCollect/list')).toEqual([]);
  });

  it('refuses forms that are not the caller’s, missing forms and wrong types', async () => {
    expect((await collect(qy, { tableId: id(GRID_FORM) })).code).toBe('F1000');
    expect((await collect(qy, { tableId: id(GRID_FORM), collect: false })).code).toBe('F1000');
    expect((await collect(qy, { tableId: 987_654_321 })).code).toBe('F1000');
    expect((await collect(qy, { tableId: 'abc' })).code).toBe(400);
    expect((await collect(qy, { tableId: -1 })).code).toBe(400);
    expect((await collect(qy, {})).code).toBe(400);
    expect((await collect(qy, { tableId: id(QY_FORM), collect: 'yes' })).code).toBe(400);
    const none = await t.app.ctx.db
      .selectFrom('diy_table_collect')
      .select('id')
      .where('table_id', '=', id(GRID_FORM))
      .where('user_id', '=', await userId('qyfiller'))
      .execute();
    expect(none).toEqual([]);
  });

  it('refuses unpublished and disabled forms', async () => {
    const draft = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '未发布的企业表',
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
    });
    expect((await collect(qy, { tableId: draft })).code).toBe('F1002');
    await t.app.ctx.db.updateTable('diy_table').set({ status: 2 }).where('id', '=', id(QY_FORM)).execute();
    try {
      expect((await collect(qy, { tableId: id(QY_FORM) })).code).toBe('F1003');
      expect(await api.code(qy, 'GET', `/api/diyTableCollect/detail?id=${id(QY_FORM)}`)).toBe('F1003');
    } finally {
      await t.app.ctx.db.updateTable('diy_table').set({ status: 1 }).where('id', '=', id(QY_FORM)).execute();
    }
  });

  it('does not reach another tenant’s forms, nor list a favourite whose form left the tenant', async () => {
    expect((await collect(qy, { tableId: id(QY_FORM), collect: true })).code).toBe(200);
    const tenant = (
      await t.app.ctx.db
        .selectFrom('diy_table')
        .select('tenant_id')
        .where('id', '=', id(QY_FORM))
        .executeTakeFirstOrThrow()
    ).tenant_id;
    await t.app.ctx.db
      .updateTable('diy_table')
      .set({ tenant_id: tenant + 1 })
      .where('id', '=', id(QY_FORM))
      .execute();
    try {
      expect(await api.ok<FormItem[]>(qy, 'GET', '/api/diyTableCollect/list')).toEqual([]);
      expect(await api.ok<MyReportItem[]>(qy, 'GET', '/api/diyTableCollect/myReports')).toEqual([]);
      expect(await api.code(qy, 'GET', `/api/diyTableCollect/detail?id=${id(QY_FORM)}`)).toBe('F1000');
      expect((await collect(qy, { tableId: id(QY_FORM), collect: true })).code).toBe('F1000');
    } finally {
      await t.app.ctx.db
        .updateTable('diy_table')
        .set({ tenant_id: tenant })
        .where('id', '=', id(QY_FORM))
        .execute();
    }
    expect((await api.ok<FormItem[]>(qy, 'GET', '/api/diyTableCollect/list')).map((i) => i.id)).toEqual([
      id(QY_FORM),
    ]);
  });
});

describe('detail', () => {
  it('answers a form the caller may open with the records summary', async () => {
    const detail = await api.ok<MyReportItem>(qy, 'GET', `/api/diyTableCollect/detail?id=${id(QY_FORM)}`);
    const row = await t.app.ctx.db
      .selectFrom('diy_table')
      .select(['remark', 'title'])
      .where('id', '=', id(QY_FORM))
      .executeTakeFirstOrThrow();
    expect(detail).toMatchObject({
      id: id(QY_FORM),
      title: row.title,
      remark: row.remark,
      categoryName: '企业填报',
      ownerOrgName: '区市场监督管理局',
      myRecordCount: 2,
      collected: true,
    });
    expect(detail.myAuth.add).toBe(true);
  });

  it('refuses forms not theirs and bad ids', async () => {
    expect(await api.code(qy, 'GET', `/api/diyTableCollect/detail?id=${id(GRID_FORM)}`)).toBe('F1000');
    expect(await api.code(qy, 'GET', '/api/diyTableCollect/detail?id=987654321')).toBe('F1000');
    expect(await api.code(qy, 'GET', '/api/diyTableCollect/detail?id=x')).toBe(400);
    expect(await api.code(qy, 'GET', '/api/diyTableCollect/detail')).toBe(400);
  });

  it('is for signed-in users only', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/diyTableCollect/list' });
    expect(response.json().code).toBe(401);
  });
});

async function userId(account: string): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  return row.id;
}
