import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 16 §2: a returned record stays editable, submittable and deletable by its filler until its period is
 * closed — also after the due date, when a re-filing is marked late; deleted, it may be restored from the
 * recycle bin until then too. Other records of an overdue period stay
 * refused (F1022), and nothing changes in a closed period (F1023). Played on the seeded 社区人口月报, whose
 * last month is made overdue here.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let leader: string;
let gzl: string;
let grid: string;
let fgw: string;
let formId: number;
let lastMonth: number;
let deletedReturned: number;

const db = () => t.app.ctx.db;
const get = (token: string, id: number) => api.ok<DiyRecord>(token, 'GET', `/api/diyData/${formId}/${id}`);
const update = (token: string, id: number, values: Record<string, unknown>, submit: boolean) =>
  api.code(token, 'PUT', `/api/diyData/${formId}/update`, { id, values, submit });
const audit = (ids: number[], action: 'approve' | 'return', comment?: string) =>
  api.code(leader, 'POST', `/api/diyData/${formId}/audit`, { ids, action, ...(comment ? { comment } : {}) });

const restore = (id: number) =>
  api.code(admin, 'POST', '/api/diyRecycle/restore', { items: [{ kind: 'record', tableId: formId, id }] });

/** The live record a user filed in the last month. */
async function recordOf(account: string): Promise<DiyRecord> {
  const user = await db()
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  const rows = await db()
    .selectFrom(`diy_data_${formId}` as 'diy_table')
    .select('id')
    .where('period_id' as never, '=', lastMonth as never)
    .where('create_user_id' as never, '=', user.id as never)
    .where('is_delete', '=', 0)
    .execute();
  expect(rows).toHaveLength(1);
  return get(admin, Number(rows[0]?.id));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  leader = (await login(t.app, 'hpleader')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  grid = (await login(t.app, 'gridstaff')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  const form = await db()
    .selectFrom('diy_table')
    .select('id')
    .where('title', '=', '社区人口月报')
    .executeTakeFirstOrThrow();
  formId = form.id;
  // The seeded last month, past its due date and grace window (not closed): overdue whatever today is.
  const periods = await db()
    .selectFrom('diy_table_period')
    .select(['id', 'start_date'])
    .where('table_id', '=', formId)
    .where('start_date', '<=', formatDate(new Date()))
    .orderBy('start_date', 'desc')
    .execute();
  const last = periods[1] as { id: number; start_date: string };
  lastMonth = last.id;
  await db()
    .updateTable('diy_table_period')
    .set({ due_date: last.start_date, grace_until: null, reopen_until: null, closed: 0 })
    .where('id', '=', lastMonth)
    .execute();
});

afterAll(async () => {
  await t?.close();
});

describe('a returned record in a period past its due date', () => {
  it('is changed, submitted again (late) and reviewed again by its filler and reviewer', async () => {
    const record = await recordOf('gzlstaff');
    expect(record).toMatchObject({ status: 1, late: false });
    // Submitted and waiting for review: the filler may no longer change it after the due date.
    expect(await update(gzl, record.id, { ...record.values, remark: '补充说明' }, false)).toBe('F1022');
    expect(await audit([record.id], 'return', '户籍人口与上月差异较大，请核实')).toBe(200);

    // Returned: saved as a draft (still returned, not late), then submitted again — late.
    expect(await update(gzl, record.id, { ...record.values, huji: 2999 }, false)).toBe(200);
    expect(await get(gzl, record.id)).toMatchObject({ status: 3, late: false, values: { huji: 2999 } });
    expect(await update(gzl, record.id, { ...record.values, huji: 2999 }, true)).toBe(200);
    const refiled = await get(gzl, record.id);
    expect(refiled).toMatchObject({ status: 1, late: true });
    // Back with the reviewer, it is no longer the filler's to change.
    expect(await update(gzl, record.id, refiled.values, false)).toBe('F1022');
    expect(await audit([record.id], 'approve')).toBe(200);
    expect(await get(admin, record.id)).toMatchObject({ status: 2, late: true });
  });

  it('is deleted by its filler, and restored from the recycle bin while its period is not closed', async () => {
    const returned = await recordOf('gridstaff');
    expect(returned.status).toBe(3);
    expect(await api.code(grid, 'DELETE', `/api/diyData/${formId}/${returned.id}`)).toBe(200);
    expect(await api.code(admin, 'GET', `/api/diyData/${formId}/${returned.id}`)).not.toBe(200);
    // Its filler may still change it in the overdue period, so it may come back there.
    expect(await restore(returned.id)).toBe(200);
    expect(await get(grid, returned.id)).toMatchObject({ status: 3, late: false });
    // Deleted again: it waits in the recycle bin for the period's closing (below).
    expect(await api.code(grid, 'DELETE', `/api/diyData/${formId}/${returned.id}`)).toBe(200);
    deletedReturned = returned.id;
  });

  it('leaves every other record of the overdue period refused (F1022)', async () => {
    const submitted = await recordOf('fgwstaff');
    expect(submitted.status).toBe(1);
    expect(await update(fgw, submitted.id, submitted.values, true)).toBe('F1022');
    expect(await api.code(fgw, 'DELETE', `/api/diyData/${formId}/${submitted.id}`)).toBe('F1022');
    const add = await api.envelope(gzl, 'POST', `/api/diyData/${formId}/add`, {
      periodId: lastMonth,
      values: {},
      submit: false,
    });
    expect(add.code).toBe('F1022');
  });

  it('takes no change once its period is closed (F1023)', async () => {
    const record = await recordOf('fgwstaff');
    expect(await audit([record.id], 'return', '请补充集体户名单')).toBe(200);
    expect(
      await api.code(admin, 'POST', '/api/diyPeriod/close', { id: lastMonth, comment: '本期结束' }),
    ).toBe(200);
    expect(await update(fgw, record.id, record.values, false)).toBe('F1023');
    expect(await update(fgw, record.id, record.values, true)).toBe('F1023');
    expect(await api.code(fgw, 'DELETE', `/api/diyData/${formId}/${record.id}`)).toBe('F1023');
    expect(await get(admin, record.id)).toMatchObject({ status: 3, late: false });
    // A deleted returned record no longer comes back either.
    expect(await restore(deletedReturned)).toBe('F1023');
  });
});
