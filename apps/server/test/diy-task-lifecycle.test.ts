import type { TaskDetail, TaskGrid } from '@shuzhi/contracts/diy-task';
import type { TaskMetrics } from '@shuzhi/contracts/diy-task-lifecycle';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime } from '../src/platform/db/time.ts';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { multipart, PNG_1X1 } from './upload.fixture.ts';

/**
 * Tasks, second part (issue 19 §5, §7, §8, docs/tasks.md): zero reports, grid filters and Excel, timeliness from
 * the records' history on known data, edit with the due-time rule, close / reopen / delete, and a form taken off
 * while the task is open.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let njdleader: string;
let gzlstaff: string;
let formId: number;
let orgs: Record<string, number>;
let taskId: number;
let parts: Map<string, number>;
const part = (name: string) => parts.get(name) as number;

const NJD = '310101002';
const GZL = '310101002001';
const NBL = '310101002003';
const HOUR = 3_600_000;
const db = () => t.app.ctx.db;
const inDays = (days: number) => formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 16);
const detail = (token: string, id = taskId) =>
  api.ok<TaskDetail>(token, 'GET', `/api/diyTask/detail?id=${id}`);
const grid = (token: string, query = '') =>
  api.ok<TaskGrid>(token, 'GET', `/api/diyTask/grid?id=${taskId}${query}`);
const cellOf = async (orgName: string) =>
  (await grid(admin)).rows.find((r) => r.orgName === orgName)?.cells[0];
const post = (token: string, url: string, body: Record<string, unknown>) =>
  api.envelope(token, 'POST', url, body);

beforeAll(async () => {
  t = await createTestApp();
  [admin, njdleader, gzlstaff] = await Promise.all(
    ['admin', 'njdleader', 'gzlstaff'].map(async (a) => (await login(t.app, a)).accessToken),
  );
  formId = (
    await db()
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '社区人口月报')
      .executeTakeFirstOrThrow()
  ).id;
  const orgRows = await db().selectFrom('sys_org').select(['id', 'code']).execute();
  orgs = Object.fromEntries(orgRows.map((r) => [r.code, r.id]));
  taskId = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
    title: '生命周期任务',
    forms: [{ tableId: formId }],
    dueTime: inDays(10),
    receivers: { orgIds: [orgs[NJD]] },
  });
  const street = (await detail(njdleader)).receivers.find((r) => r.mine) as TaskDetail['receivers'][number];
  await api.ok<number>(njdleader, 'POST', '/api/diyTask/handOn', {
    receiverId: street.id,
    dueTime: inDays(7),
    receivers: { orgTypes: ['community'] },
  });
  const rows = (await detail(admin)).receivers;
  parts = new Map(rows.map((r) => [r.orgName, r.id]));
});

afterAll(async () => {
  await t?.close();
});

describe('zero reports', () => {
  it('a community declares nothing to report; the cell shows it and counts upward; it can be withdrawn', async () => {
    const zero = { receiverId: part('贵州路居民委员会'), tableId: formId, note: '本月无变动' };
    await api.ok(gzlstaff, 'POST', '/api/diyTask/zero', zero);
    expect(await cellOf('贵州路居民委员会')).toMatchObject({ state: 'zero', zeroNote: '本月无变动' });
    expect(await cellOf('南京东路街道')).toMatchObject({ done: 1, total: 3 });
    expect((await detail(admin)).events.at(-1)).toMatchObject({
      action: 'zero',
      orgName: '贵州路居民委员会',
    });
    const withdraw = { receiverId: part('贵州路居民委员会'), tableId: formId };
    await api.ok(gzlstaff, 'POST', '/api/diyTask/zeroWithdraw', withdraw);
    // The seeded draft of this month is there again.
    expect((await cellOf('贵州路居民委员会'))?.state).toBe('filling');
    expect((await post(gzlstaff, '/api/diyTask/zeroWithdraw', withdraw)).code).toBe('T1035');
    expect((await post(gzlstaff, '/api/diyTask/zero', { ...zero, tableId: 987654321 })).code).toBe('T1036');
    // Not the unit's part (another community's), nor a part handed on.
    expect(
      (await post(gzlstaff, '/api/diyTask/zero', { ...zero, receiverId: part('福州路居民委员会') })).code,
    ).toBe('T1010');
    expect(
      (await post(njdleader, '/api/diyTask/zero', { ...zero, receiverId: part('南京东路街道') })).code,
    ).toBe('T1010');
    expect((await post(gzlstaff, '/api/diyTask/zero', { ...zero, note: '' })).code).toBe(400);
  });

  it('a unit that filed cannot declare zero; a record filed after a zero report takes its place', async () => {
    await api.ok(njdleader, 'POST', '/api/diyTask/zero', {
      receiverId: part('福州路居民委员会'),
      tableId: formId,
      note: '暂无',
    });
    const d = await detail(admin);
    const period = await db()
      .selectFrom('diy_table_period')
      .select(['id', 'period_key'])
      .where('id', '=', d.forms[0]?.periodId as number)
      .executeTakeFirstOrThrow();
    await api.ok<number>(gzlstaff, 'POST', `/api/diyData/${formId}/add`, {
      periodId: period.id,
      values: {
        month: period.period_key,
        unit: orgs[GZL],
        filler: '吴静',
        huji: 3001,
        liudong: 998,
        elderly: 1190,
      },
      submit: true,
    });
    expect((await cellOf('贵州路居民委员会'))?.state).toBe('submitted');
    const again = { receiverId: part('贵州路居民委员会'), tableId: formId, note: '无' };
    expect((await post(gzlstaff, '/api/diyTask/zero', again)).code).toBe('T1031');
    expect(await cellOf('南京东路街道')).toMatchObject({ state: 'filling', done: 2, total: 3 });
  });
});

describe('grid filters and Excel', () => {
  it('filters by depth, org type and state', async () => {
    expect((await grid(admin, '&depth=2')).rows.map((r) => r.orgName)).toEqual([
      '贵州路居民委员会',
      '福州路居民委员会',
      '宁波路居民委员会',
    ]);
    expect((await grid(admin, '&orgType=street')).rows.map((r) => [r.orgName, r.depth])).toEqual([
      ['南京东路街道', 1],
    ]);
    expect((await grid(admin, '&state=zero')).rows.map((r) => r.orgName)).toEqual(['福州路居民委员会']);
    expect(await api.code(admin, 'GET', `/api/diyTask/grid?id=${taskId}&state=bogus`)).toBe(400);
  });

  it('exports the grid as the caller sees it, read back from the file', async () => {
    const res = await api.call(admin, 'GET', `/api/diyTask/export?id=${taskId}&depth=2`);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]?.slice(0, 4)).toEqual(['单位', '单位类型', '层级', '截止时间']);
    expect(String(rows[0]?.[4])).toContain('社区人口月报');
    expect(rows.slice(1).map((r) => [r[0], r[1], r[2], r[4]])).toEqual([
      ['贵州路居民委员会', '社区', 2, '已提交'],
      ['福州路居民委员会', '社区', 2, '零报告'],
      ['宁波路居民委员会', '社区', 2, '未开始'],
    ]);
    // Unfiltered: parents first, each followed by the units below it.
    const all = await api.call(admin, 'GET', `/api/diyTask/export?id=${taskId}`);
    const whole = new ExcelJS.Workbook();
    await whole.xlsx.load(all.rawPayload as unknown as ArrayBuffer);
    const names: unknown[] = [];
    whole.worksheets[0]?.eachRow((row, i) => {
      if (i > 1) names.push((row.values as unknown[])[1]);
    });
    expect(names).toEqual(['南京东路街道', '贵州路居民委员会', '福州路居民委员会', '宁波路居民委员会']);
    // Staff hold no diyTask:export.
    expect((await api.call(gzlstaff, 'GET', `/api/diyTask/export?id=${taskId}`)).statusCode).toBe(403);
  });
});

describe('timeliness', () => {
  it('computes on-time rate, hours before due, returns and review turnaround from the records’ history', async () => {
    const d = await detail(admin);
    const due = parseDateTime(
      (d.receivers.find((r) => r.orgName === '贵州路居民委员会') as TaskDetail['receivers'][number]).dueTime,
    ).getTime();
    const at = (ms: number) => formatDateTime(new Date(ms));
    const record = await db()
      .selectFrom('diy_record_history')
      .select(['id', 'record_id', 'version', 'tenant_id'])
      .where('table_id', '=', formId)
      .where('action', '=', 'submit')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    // Submitted 48 h before due, returned an hour later, submitted again, approved three hours after that.
    await db()
      .updateTable('diy_record_history')
      .set({ create_time: at(due - 48 * HOUR) })
      .where('id', '=', record.id)
      .execute();
    const step = (action: string, ms: number) => ({
      id: t.app.ctx.newId(),
      tenant_id: record.tenant_id,
      table_id: formId,
      record_id: record.record_id,
      action,
      changes: '[]',
      comment: null,
      version: record.version,
      user_id: null,
      user_name: null,
      create_time: at(ms),
    });
    await db()
      .insertInto('diy_record_history')
      .values([
        step('return', due - 47 * HOUR),
        step('submit', due - 46 * HOUR),
        step('approve', due - 43 * HOUR),
      ])
      .execute();
    // 福州路's zero report came a day late.
    await db()
      .updateTable('diy_task_zero')
      .set({ create_time: at(due + 24 * HOUR) })
      .where('receiver_id', '=', part('福州路居民委员会'))
      .execute();
    const m = await api.ok<TaskMetrics>(admin, 'GET', `/api/diyTask/metrics?id=${taskId}`);
    // Reviewed, but not level by level: no turnaround per review level.
    expect(m.reviewLevels).toEqual([]);
    const unit = (name: string) => m.units.find((u) => u.orgName === name);
    expect(unit('贵州路居民委员会')).toMatchObject({
      expected: 1,
      submitted: 1,
      onTime: 1,
      onTimeRate: 1,
      avgHoursBeforeDue: 48,
      returnsPerRecord: 1,
      avgReviewHours: 2,
    });
    expect(unit('福州路居民委员会')).toMatchObject({ submitted: 1, onTime: 0, avgHoursBeforeDue: -24 });
    expect(unit('宁波路居民委员会')).toMatchObject({ submitted: 0, onTimeRate: 0, avgHoursBeforeDue: null });
    expect(m.levels).toEqual([
      {
        orgType: 'community',
        expected: 3,
        submitted: 2,
        onTime: 1,
        onTimeRate: 0.3333,
        avgHoursBeforeDue: 12,
        returnsPerRecord: 1,
        avgReviewHours: 2,
      },
    ]);
    expect(m.total).toMatchObject({ expected: 3, onTime: 1 });
    // The street sees its own subtree's figures too.
    const seen = await api.ok<TaskMetrics>(njdleader, 'GET', `/api/diyTask/metrics?id=${taskId}`);
    expect(seen.units).toHaveLength(3);
  });
});

describe('edit', () => {
  it('a later due time moves the receivers due at the old one; an earlier one may not pass a unit below', async () => {
    const base = { id: taskId, title: '生命周期任务（改）', instructions: '<p>新说明</p>' };
    expect((await post(admin, '/api/diyTask/edit', { ...base, dueTime: inDays(5) })).code).toBe('T1030');
    expect((await post(admin, '/api/diyTask/edit', { ...base, dueTime: inDays(-1) })).code).toBe('T1001');
    expect((await post(njdleader, '/api/diyTask/edit', { ...base, dueTime: inDays(12) })).code).toBe('T1037');
    expect((await post(gzlstaff, '/api/diyTask/edit', { ...base, dueTime: inDays(12) })).code).toBe(403);
    await api.ok(admin, 'POST', '/api/diyTask/edit', { ...base, dueTime: inDays(12) });
    const d = await detail(admin);
    expect(d.title).toBe('生命周期任务（改）');
    expect(d.instructions).toBe('<p>新说明</p>');
    expect(d.dueTime.slice(0, 16)).toBe(inDays(12));
    const dueOf = (name: string) => d.receivers.find((r) => r.orgName === name)?.dueTime.slice(0, 16);
    expect(dueOf('南京东路街道')).toBe(inDays(12));
    expect(dueOf('贵州路居民委员会')).toBe(inDays(7));
    expect(d.events.at(-1)).toMatchObject({ action: 'edit' });
    expect(d.events.at(-1)?.comment).toContain('→');
    // The street, whose due time moved, is told; the communities, whose due time stayed, are not.
    const unread = async (token: string) =>
      (await api.ok<{ items: { title: string }[] }>(token, 'GET', '/api/sysNotice/unReadSummary')).items.map(
        (n) => n.title,
      );
    expect(await unread(njdleader)).toContain('【任务】生命周期任务（改）：截止时间调整');
    expect(await unread(gzlstaff)).not.toContain('【任务】生命周期任务（改）：截止时间调整');
    // Back to 7 days: the street moves back with the task, the communities (due then too) stay as they are.
    await api.ok(admin, 'POST', '/api/diyTask/edit', { ...base, dueTime: inDays(7) });
    expect((await detail(admin)).receivers.every((r) => r.dueTime.slice(0, 16) === inDays(7))).toBe(true);
  });
});

describe('attachments', () => {
  const upload = async (token: string, name: string) => {
    const form = multipart(name, PNG_1X1, 'image/png');
    const response = await authed(t.app, token, {
      method: 'POST',
      url: '/api/sysFile/uploadFile',
      payload: form.payload,
      headers: form.headers,
    });
    return (body<{ id: number }>(response).result as { id: number }).id;
  };
  const download = async (token: string, fileId: number) => {
    const response = await authed(t.app, token, { method: 'GET', url: `/api/sysFile/download/${fileId}` });
    return response.statusCode === 200 && !String(response.headers['content-type']).includes('json')
      ? 200
      : body(response).code;
  };

  it('an edit adds and removes files; the task’s readers download them, others do not', async () => {
    const base = { id: taskId, title: '生命周期任务（改）', dueTime: inDays(7) };
    const a = await upload(admin, 'a.png');
    const b = await upload(admin, 'b.png');
    const strangers = await upload(njdleader, 'n.png');
    // Only files of the tenant (an unknown id: D1002).
    expect(
      (await post(admin, '/api/diyTask/edit', { ...base, attachments: [{ fileId: 987654321, name: 'x' }] }))
        .code,
    ).toBe('D1002');
    const both = [
      { fileId: a, name: 'a.png' },
      { fileId: b, name: 'b.png' },
    ];
    await api.ok(admin, 'POST', '/api/diyTask/edit', { ...base, attachments: both });
    expect((await detail(admin)).attachments).toEqual(both);
    // A community of the task reads them; a unit outside it (the bureau's chief) does not.
    const mzjchief = (await login(t.app, 'mzjchief')).accessToken;
    expect(await download(gzlstaff, a)).toBe(200);
    expect(await download(mzjchief, a)).toBe('D1002');
    // Taking b off: the history says so, and the community no longer reads it.
    await api.ok(admin, 'POST', '/api/diyTask/edit', { ...base, attachments: [both[0]] });
    const d = await detail(admin);
    expect(d.attachments).toEqual([both[0]]);
    expect(d.events.at(-1)?.comment).toBe('附件：删除 b.png');
    expect(await download(gzlstaff, b)).toBe('D1002');
    expect(await download(gzlstaff, a)).toBe(200);
    // Another user's file is listed but not taken in: the community cannot read it through the task.
    await api.ok(admin, 'POST', '/api/diyTask/edit', {
      ...base,
      attachments: [both[0], { fileId: strangers, name: 'n.png' }],
    });
    expect((await detail(admin)).events.at(-1)?.comment).toBe('附件：新增 n.png');
    expect(await download(gzlstaff, strangers)).toBe('D1002');
    // Without diyTask:edit: refused.
    expect((await post(gzlstaff, '/api/diyTask/edit', { ...base, attachments: [] })).code).toBe(403);
    await api.ok(admin, 'POST', '/api/diyTask/edit', { ...base, attachments: [] });
    expect((await detail(admin)).attachments).toEqual([]);
    expect(await download(gzlstaff, a)).toBe('D1002');
  });
});

describe('a form taken off while the task is open', () => {
  it('shows 表单已停用 cells, refuses hand-on and zero reports, and warns in the detail', async () => {
    await db().updateTable('diy_table').set({ version: 0 }).where('id', '=', formId).execute();
    try {
      const g = await grid(admin);
      expect(g.forms[0]?.active).toBe(false);
      expect(g.rows.every((r) => r.cells[0]?.state === 'formOff')).toBe(true);
      expect((await detail(admin)).forms[0]?.active).toBe(false);
      const handOn = {
        receiverId: part('南京东路街道'),
        dueTime: inDays(3),
        receivers: { orgIds: [orgs[NBL]] },
      };
      const refused = await post(njdleader, '/api/diyTask/handOn', handOn);
      expect(refused.code).toBe('T1033');
      expect(refused.message).toContain('社区人口月报');
      const zero = { receiverId: part('宁波路居民委员会'), tableId: formId, note: '无' };
      expect((await post(njdleader, '/api/diyTask/zero', zero)).code).toBe('T1033');
    } finally {
      await db().updateTable('diy_table').set({ version: 1 }).where('id', '=', formId).execute();
    }
    expect((await cellOf('贵州路居民委员会'))?.state).not.toBe('formOff');
  });

  it('treats a deleted or disabled form the same way', async () => {
    for (const [off, on] of [
      [{ is_delete: 1 }, { is_delete: 0 }],
      [{ status: 0 }, { status: 1 }],
    ] as const) {
      await db().updateTable('diy_table').set(off).where('id', '=', formId).execute();
      try {
        expect((await grid(admin)).forms[0]?.active).toBe(false);
        expect((await cellOf('宁波路居民委员会'))?.state).toBe('formOff');
      } finally {
        await db().updateTable('diy_table').set(on).where('id', '=', formId).execute();
      }
    }
  });
});

describe('close, reopen, delete', () => {
  it('a closed task takes no hand-on, transfer, zero report or edit; it can be reopened', async () => {
    expect((await post(njdleader, '/api/diyTask/close', { id: taskId })).code).toBe('T1037');
    await api.ok(admin, 'POST', '/api/diyTask/close', { id: taskId, comment: '收官' });
    expect((await detail(admin)).state).toBe('closed');
    expect((await post(admin, '/api/diyTask/close', { id: taskId })).code).toBe('T1032');
    const zero = { receiverId: part('宁波路居民委员会'), tableId: formId, note: '无' };
    expect((await post(njdleader, '/api/diyTask/zero', zero)).code).toBe('T1010');
    expect(
      (
        await post(njdleader, '/api/diyTask/zeroWithdraw', {
          receiverId: part('福州路居民委员会'),
          tableId: formId,
        })
      ).code,
    ).toBe('T1010');
    expect(
      (
        await post(njdleader, '/api/diyTask/transfer', {
          receiverId: part('宁波路居民委员会'),
          orgId: orgs['HPQ-FGW'],
          reason: 'x',
        })
      ).code,
    ).toBe('T1010');
    expect(
      (await post(admin, '/api/diyTask/edit', { id: taskId, title: 'x', dueTime: inDays(9) })).code,
    ).toBe('T1032');
    await api.ok(admin, 'POST', '/api/diyTask/reopen', { id: taskId });
    expect((await post(admin, '/api/diyTask/reopen', { id: taskId })).code).toBe('T1034');
    await api.ok(njdleader, 'POST', '/api/diyTask/zero', zero);
    expect((await detail(admin)).events.map((e) => e.action).slice(-3)).toEqual(['close', 'reopen', 'zero']);
  });

  it('delete is soft: the task leaves every list and answers T1000; its history stays', async () => {
    expect((await post(gzlstaff, '/api/diyTask/delete', { id: taskId })).code).toBe(403);
    expect((await post(njdleader, '/api/diyTask/delete', { id: taskId })).code).toBe('T1037');
    await api.ok(admin, 'POST', '/api/diyTask/delete', { id: taskId });
    expect(await api.code(admin, 'GET', `/api/diyTask/detail?id=${taskId}`)).toBe('T1000');
    expect(await api.code(admin, 'GET', `/api/diyTask/metrics?id=${taskId}`)).toBe('T1000');
    expect((await post(admin, '/api/diyTask/delete', { id: taskId })).code).toBe('T1000');
    const mine = await api.ok<{ items: { id: number }[] }>(gzlstaff, 'POST', '/api/diyTask/mine', {});
    expect(mine.items.some((r) => r.id === taskId)).toBe(false);
    const steps = await db()
      .selectFrom('diy_task_event')
      .select('action')
      .where('task_id', '=', taskId)
      .execute();
    expect(steps.map((s) => s.action)).toContain('delete');
    expect(
      await db().selectFrom('diy_task_zero').select('id').where('task_id', '=', taskId).execute(),
    ).toHaveLength(2);
  });

  it('a deleted task is listed for its managers and restored as it was, history and zero reports with it', async () => {
    type Deleted = { items: { id: number; deleteUserName: string | null; deleteTime: string | null }[] };
    const deleted = await api.ok<Deleted>(admin, 'POST', '/api/diyTask/deletedPage', {});
    const row = deleted.items.find((r) => r.id === taskId);
    expect(row?.deleteTime).toBeTruthy();
    expect(row?.deleteUserName).toBeTruthy();
    // Not theirs to manage: the street leader sees none of the district's deleted tasks and cannot restore.
    const theirs = await api.ok<Deleted>(njdleader, 'POST', '/api/diyTask/deletedPage', {});
    expect(theirs.items.some((r) => r.id === taskId)).toBe(false);
    expect((await post(njdleader, '/api/diyTask/restore', { id: taskId })).code).toBe('T1037');
    expect((await post(gzlstaff, '/api/diyTask/deletedPage', {})).code).toBe(403);
    expect((await post(gzlstaff, '/api/diyTask/restore', { id: taskId })).code).toBe(403);

    await api.ok(admin, 'POST', '/api/diyTask/restore', { id: taskId, comment: '误删' });
    expect((await post(admin, '/api/diyTask/restore', { id: taskId })).code).toBe('T1000');
    const detail = await api.ok<{ id: number; events: { action: string; comment: string | null }[] }>(
      admin,
      'GET',
      `/api/diyTask/detail?id=${taskId}`,
    );
    expect(detail.events.map((e) => e.action)).toEqual(expect.arrayContaining(['delete', 'restore']));
    expect(detail.events.find((e) => e.action === 'restore')?.comment).toBe('误删');
    const after = await api.ok<Deleted>(admin, 'POST', '/api/diyTask/deletedPage', {});
    expect(after.items.some((r) => r.id === taskId)).toBe(false);
    const mine = await api.ok<{ items: { id: number }[] }>(gzlstaff, 'POST', '/api/diyTask/mine', {});
    expect(mine.items.some((r) => r.id === taskId)).toBe(true);
    expect(
      await db().selectFrom('diy_task_zero').select('id').where('task_id', '=', taskId).execute(),
    ).toHaveLength(2);
  });
});
