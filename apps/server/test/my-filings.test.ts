import type { UserInfo } from '@shuzhi/contracts/auth';
import type { MyFiling } from '@shuzhi/contracts/diy-collect';
import type { MenuNode } from '@shuzhi/contracts/menu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../src/platform/db/time.ts';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 16 §5, the home page's forms to file this period (`GET /api/diyTableCollect/myFilings`): the periodic
 * forms the caller fills with their current period, and the state of the caller's own record there (their
 * unit's with one record per unit); nothing of other units, forms without an open period left out. Issue 16
 * §4: an enterprise account is told apart by its account type, and its menu holds the portal.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let qy: string;
let fgw: string;
let grid: string;
let gzl: string;
let formId: number;
const FORM = '社区人口月报';

const db = () => t.app.ctx.db;
const filings = (token: string) => api.ok<MyFiling[]>(token, 'GET', '/api/diyTableCollect/myFilings');
const population = async (token: string) => (await filings(token)).find((f) => f.title === FORM);

/** The current (newest started) period of the seeded form. */
async function currentPeriod() {
  return db()
    .selectFrom('diy_table_period')
    .selectAll()
    .where('table_id', '=', formId)
    .where('start_date', '<=', formatDate(new Date()))
    .orderBy('start_date', 'desc')
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  qy = (await login(t.app, 'qyfiller')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  grid = (await login(t.app, 'gridstaff')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  formId = (
    await db().selectFrom('diy_table').select('id').where('title', '=', FORM).executeTakeFirstOrThrow()
  ).id;
});

afterAll(async () => {
  await t?.close();
});

describe('forms to file this period (myFilings)', () => {
  it('lists the periodic forms the caller fills, with the current period and their own draft', async () => {
    const period = await currentPeriod();
    const items = await filings(grid);
    // Of the demo forms only 社区人口月报 has periods; the others are not "this period's".
    expect(items.map((i) => i.title)).toEqual([FORM]);
    const item = items[0] as MyFiling;
    expect(item.currentPeriod).toMatchObject({ id: period.id, dueDate: period.due_date });
    expect(['open', 'grace']).toContain(item.currentPeriod.state);
    expect(item.currentPeriod.name).toMatch(/^\d{4}年\d{1,2}月$/);
    expect(item.myAuth.add).toBe(true);
    // The seed leaves gridstaff a draft this month.
    expect(item).toMatchObject({ recordStatus: 0, late: false });
    const draft = await db()
      .selectFrom(dataTableName(formId) as 'diy_table')
      .select(['id', 'create_time', 'update_time'] as never[])
      .where('id', '=', item.recordId as number)
      .executeTakeFirstOrThrow();
    const row = draft as unknown as { create_time: string; update_time: string | null };
    expect(item.recordTime).toBe(row.update_time ?? row.create_time);
  });

  it('shows nothing of another unit: not filed yet, then the caller’s own record as it changes', async () => {
    expect(await population(gzl)).toMatchObject({ recordId: null, recordStatus: null, late: false });
    expect(await population(fgw)).toMatchObject({ recordId: null, recordStatus: null, recordTime: null });
    const id = await api.ok<number>(fgw, 'POST', `/api/diyData/${formId}/add`, {
      values: { remark: '集体户情况' },
      submit: false,
    });
    expect(await population(fgw)).toMatchObject({ recordId: id, recordStatus: 0, late: false });
    for (const [status, late] of [
      [1, 1],
      [3, 0],
      [2, 1],
    ] as const) {
      await db()
        .updateTable(dataTableName(formId) as 'diy_table')
        .set({ status, late } as never)
        .where('id', '=', id)
        .execute();
      expect(await population(fgw)).toMatchObject({
        recordId: id,
        recordStatus: status,
        late: late === 1,
      });
    }
    // Still nothing for the others' units.
    expect(await population(gzl)).toMatchObject({ recordId: null });
    // Deleted, it is not filed any more.
    await db()
      .updateTable(dataTableName(formId) as 'diy_table')
      .set({ is_delete: 1 } as never)
      .where('id', '=', id)
      .execute();
    expect(await population(fgw)).toMatchObject({ recordId: null, recordStatus: null });
  });

  it('leaves out users who fill no periodic form, and forms with no period open now', async () => {
    // qyfiller fills 企业基本情况登记表 only, a form without periods.
    expect(await filings(qy)).toEqual([]);
    const periods = await db()
      .selectFrom('diy_table_period')
      .select(['id', 'closed'])
      .where('table_id', '=', formId)
      .execute();
    await db().updateTable('diy_table_period').set({ closed: 1 }).where('table_id', '=', formId).execute();
    expect(await population(grid)).toBeUndefined();
    for (const p of periods) {
      await db().updateTable('diy_table_period').set({ closed: p.closed }).where('id', '=', p.id).execute();
    }
    expect(await population(grid)).toBeDefined();
  });

  it('answers only a signed-in caller', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/diyTableCollect/myFilings' });
    expect(response.statusCode).toBe(401);
    expect(Array.isArray(await filings(admin))).toBe(true);
  });
});

describe('an enterprise account (issue 16 §4)', () => {
  const paths = (nodes: readonly MenuNode[]): string[] =>
    nodes.flatMap((n) => [n.path, ...paths(n.children ?? [])]);

  it('is told apart by its account type, and its menu holds the portal', async () => {
    expect((await api.ok<UserInfo>(qy, 'GET', '/api/sysAuth/userInfo')).accountType).toBe(666);
    expect((await api.ok<UserInfo>(fgw, 'GET', '/api/sysAuth/userInfo')).accountType).toBe(777);
    const qyMenu = paths(await api.ok<MenuNode[]>(qy, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(qyMenu).toContain('/enterprise');
    expect(qyMenu).toContain('/diyReport');
    expect(paths(await api.ok<MenuNode[]>(fgw, 'GET', '/api/sysMenu/loginMenuTree'))).not.toContain(
      '/enterprise',
    );
  });
});
