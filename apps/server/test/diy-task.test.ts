import type { FormTask, MyTaskRow, TaskDetail, TaskGrid, TaskRow } from '@shuzhi/contracts/diy-task';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Tasks (issue 19, docs/tasks.md): the district hands 社区人口月报 out to two streets, a street hands it on to
 * its communities with an earlier due time, a community sees it in 我的任务, files, and the grid shows it;
 * transfers, history, notices, data scope and every refusal (with nothing half-written).
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let njdleader: string;
let gzlleader: string;
let gzlstaff: string;
let fgwleader: string;
let mzjchief: string;
let formId: number;
let orgs: Record<string, number>;
let taskId: number;

const NJD = '310101002';
const WT = '310101013';
const GZL = '310101002001';
const FZL = '310101002002';
const db = () => t.app.ctx.db;
const inDays = (days: number) => formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 16);
const taskCount = async () =>
  Number(
    (
      await db()
        .selectFrom('diy_task')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const detail = (token: string, id = taskId) =>
  api.ok<TaskDetail>(token, 'GET', `/api/diyTask/detail?id=${id}`);
const grid = (token: string, id = taskId) => api.ok<TaskGrid>(token, 'GET', `/api/diyTask/grid?id=${id}`);
const add = (token: string, body: Record<string, unknown>) =>
  api.envelope(token, 'POST', '/api/diyTask/add', body);

beforeAll(async () => {
  t = await createTestApp();
  [admin, njdleader, gzlleader, gzlstaff, fgwleader, mzjchief] = await Promise.all(
    ['admin', 'njdleader', 'gzlleader', 'gzlstaff', 'fgwleader', 'mzjchief'].map(
      async (a) => (await login(t.app, a)).accessToken,
    ),
  );
  const form = await db()
    .selectFrom('diy_table')
    .select('id')
    .where('title', '=', '社区人口月报')
    .executeTakeFirstOrThrow();
  formId = form.id;
  const orgRows = await db().selectFrom('sys_org').select(['id', 'code']).execute();
  orgs = Object.fromEntries(orgRows.map((r) => [r.code, r.id]));
});

afterAll(async () => {
  await t?.close();
});

describe('create and distribute', () => {
  it('makes the task for two streets in one step, with history and a notice to their people', async () => {
    taskId = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
      title: '11月社区人口月报',
      forms: [{ tableId: formId }],
      dueTime: inDays(10),
      instructions: '<p>请按时填报</p><script>alert(1)</script>',
      receivers: { orgIds: [orgs[NJD], orgs[WT]] },
    });
    const d = await detail(admin);
    expect(d.manage).toBe(true);
    expect(d.instructions).not.toContain('<script>');
    expect(d.forms).toHaveLength(1);
    expect(d.forms[0]?.periodId).not.toBeNull();
    expect(d.receivers.map((r) => [r.orgName, r.parentId, r.state])).toEqual([
      ['南京东路街道', null, 'received'],
      ['外滩街道', null, 'received'],
    ]);
    expect(d.events.map((e) => [e.action, e.targetCount])).toEqual([['create', 2]]);
    const unread = await api.ok<{ count: number; items: { title: string }[] }>(
      njdleader,
      'GET',
      '/api/sysNotice/unReadSummary',
    );
    expect(unread.items.map((n) => n.title)).toContain('【任务】11月社区人口月报');
  });

  it('with subtree and org types, reaches the units below that can fill, as a tree', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
      title: '子树任务',
      forms: [{ tableId: formId }],
      dueTime: inDays(5),
      receivers: { orgIds: [orgs[NJD]], subtree: true, orgTypes: ['street', 'community'] },
    });
    const d = await detail(admin, id);
    const street = d.receivers.find((r) => r.orgName === '南京东路街道');
    expect(street?.state).toBe('handedOn');
    expect(d.receivers.filter((r) => r.parentId === street?.id).map((r) => r.orgName)).toEqual([
      '贵州路居民委员会',
      '福州路居民委员会',
      '宁波路居民委员会',
    ]);
  });

  it('refuses bad input with catalogue codes and writes nothing', async () => {
    const before = await taskCount();
    const base = {
      title: 'x',
      forms: [{ tableId: formId }],
      dueTime: inDays(3),
      receivers: { orgIds: [orgs[NJD]] },
    };
    expect((await add(admin, { ...base, dueTime: inDays(-1) })).code).toBe('T1001');
    // 区政府办公室 is no unit of the form's fill scope, nor is any unit below it.
    const unfit = await add(admin, { ...base, receivers: { orgIds: [orgs[NJD], orgs['HPQ-ZFB']] } });
    expect(unfit.code).toBe('T1004');
    expect(unfit.message).toContain('区政府办公室');
    expect((await add(admin, { ...base, receivers: { orgIds: [] } })).code).toBe('T1008');
    expect((await add(admin, { ...base, receivers: { orgIds: [987654321] } })).code).toBe('T1003');
    expect((await add(admin, { ...base, forms: [{ tableId: 987654321 }] })).code).toBe('T1002');
    expect((await add(admin, { ...base, dueTime: '2026-02-30 10:00' })).code).toBe(400);
    // A form taken off (unpublished forms have version 0).
    await db().updateTable('diy_table').set({ version: 0 }).where('id', '=', formId).execute();
    try {
      expect((await add(admin, base)).code).toBe('T1002');
    } finally {
      await db().updateTable('diy_table').set({ version: 1 }).where('id', '=', formId).execute();
    }
    // A street leader reaches only their own subtree.
    expect((await add(njdleader, { ...base, receivers: { orgIds: [orgs[WT]] } })).code).toBe('T1003');
    // Staff hold no diyTask:add.
    expect((await add(gzlstaff, base)).code).toBe(403);
    expect(await taskCount()).toBe(before);
  });
});

describe('hand on, 我的任务 and the grid', () => {
  it('a street hands it on to its communities with an earlier due time, never a later one', async () => {
    const part = (await detail(njdleader)).receivers.find((r) => r.mine) as TaskDetail['receivers'][number];
    const handOn = (body: Record<string, unknown>) =>
      api.envelope(njdleader, 'POST', '/api/diyTask/handOn', { receiverId: part.id, ...body });
    const communities = { orgTypes: ['community'] };
    expect((await handOn({ dueTime: inDays(12), receivers: communities })).code).toBe('T1005');
    expect((await handOn({ dueTime: inDays(-1), receivers: communities })).code).toBe('T1001');
    expect((await handOn({ dueTime: inDays(5), receivers: { orgIds: [orgs['310101013001']] } })).code).toBe(
      'T1009',
    );
    expect(
      await api.ok<number>(njdleader, 'POST', '/api/diyTask/handOn', {
        receiverId: part.id,
        dueTime: inDays(7),
        receivers: communities,
      }),
    ).toBe(3);
    expect((await handOn({ dueTime: inDays(5), receivers: { orgIds: [orgs[GZL]] } })).code).toBe('T1007');
  });

  it('the street sees its own subtree, not the other street; an outsider does not see the task', async () => {
    const d = await detail(njdleader);
    expect(d.manage).toBe(false);
    expect(d.receivers.map((r) => r.orgName)).toEqual([
      '南京东路街道',
      '贵州路居民委员会',
      '福州路居民委员会',
      '宁波路居民委员会',
    ]);
    expect(await api.code(mzjchief, 'GET', `/api/diyTask/detail?id=${taskId}`)).toBe('T1000');
    expect(await api.code(mzjchief, 'GET', `/api/diyTask/grid?id=${taskId}`)).toBe('T1000');
  });

  it('a community filler sees its part in 我的任务 and on the form', async () => {
    const mine = await api.ok<PageResult<MyTaskRow>>(gzlstaff, 'POST', '/api/diyTask/mine', { open: true });
    const row = mine.items.find((r) => r.id === taskId) as MyTaskRow;
    expect(row).toMatchObject({
      orgName: '贵州路居民委员会',
      state: 'received',
      submittedForms: 0,
      overdue: false,
    });
    expect(row.myDueTime.slice(0, 16)).toBe(inDays(7));
    const tasks = await api.ok<FormTask[]>(gzlstaff, 'GET', `/api/diyTable/task/${formId}`);
    const mineOnForm = tasks.find((x) => x.taskId === taskId) as FormTask;
    expect(mineOnForm).toMatchObject({ orgName: '贵州路居民委员会', state: 'received' });
    // The seeded demo holds a draft of 贵州路 for this month: started, not submitted; the grid says the same.
    expect(mineOnForm.cell).toBe('filling');
    const g = await grid(admin);
    expect(g.rows.find((r) => r.receiverId === mineOnForm.receiverId)?.cells[0]?.state).toBe('filling');
  });

  it('the grid follows the records: a community files, its street counts 1 of 3', async () => {
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
    const g = await grid(admin);
    const cell = (name: string) => g.rows.find((r) => r.orgName === name)?.cells[0];
    expect(cell('贵州路居民委员会')).toMatchObject({ state: 'submitted' });
    expect(cell('福州路居民委员会')).toMatchObject({ state: 'notStarted', recordId: null });
    expect(cell('南京东路街道')).toMatchObject({ state: 'filling', done: 1, total: 3 });
    expect(cell('外滩街道')).toMatchObject({ state: 'notStarted' });
    const page = await api.ok<PageResult<TaskRow>>(admin, 'POST', '/api/diyTask/page', { scope: 'created' });
    expect(page.items.find((r) => r.id === taskId)).toMatchObject({ receiverCount: 4, doneCount: 1 });
  });

  it('an overdue part shows its days late', async () => {
    const part = await db()
      .selectFrom('diy_task_receiver')
      .select('id')
      .where('task_id', '=', taskId)
      .where('org_id', '=', orgs[FZL] as number)
      .executeTakeFirstOrThrow();
    const past = formatDateTime(new Date(Date.now() - 2.5 * 86_400_000));
    await db().updateTable('diy_task_receiver').set({ due_time: past }).where('id', '=', part.id).execute();
    const g = await grid(admin);
    expect(g.rows.find((r) => r.receiverId === part.id)?.cells[0]).toMatchObject({
      state: 'overdue',
      daysLate: 3,
    });
  });
});

describe('transfer', () => {
  it('passes a part to another unit with its reason; the old unit keeps seeing it; no way back', async () => {
    const part = (await detail(gzlleader)).receivers.find((r) => r.mine && r.orgName === '宁波路居民委员会');
    expect(part).toBeUndefined();
    const nbl = await db()
      .selectFrom('diy_task_receiver')
      .select('id')
      .where('task_id', '=', taskId)
      .where('org_id', '=', orgs['310101002003'] as number)
      .executeTakeFirstOrThrow();
    const transfer = (token: string, body: Record<string, unknown>) =>
      api.envelope(token, 'POST', '/api/diyTask/transfer', body);
    // The street leader acts for a community in their scope; a unit already receiving it cannot take it.
    expect(
      (await transfer(njdleader, { receiverId: nbl.id, orgId: orgs[GZL], reason: '合并填报' })).code,
    ).toBe('T1007');
    expect(
      (await transfer(njdleader, { receiverId: nbl.id, orgId: orgs['HPQ-ZFB'], reason: '代填' })).code,
    ).toBe('T1004');
    const moved = await api.ok<number>(njdleader, 'POST', '/api/diyTask/transfer', {
      receiverId: nbl.id,
      orgId: orgs['HPQ-FGW'],
      reason: '由发改委统一填报',
    });
    const d = await detail(admin);
    expect(d.receivers.find((r) => r.id === nbl.id)?.state).toBe('transferred');
    expect(d.receivers.find((r) => r.id === moved)).toMatchObject({
      orgName: '区发展和改革委员会',
      transferFromId: nbl.id,
      transferReason: '由发改委统一填报',
    });
    expect(d.events.at(-1)).toMatchObject({ action: 'transfer', targets: ['区发展和改革委员会'] });
    // The street still sees both parts; the grid marks the old one 已转办.
    const seen = await detail(njdleader);
    expect(seen.receivers.map((r) => r.id)).toEqual(expect.arrayContaining([nbl.id, moved]));
    expect((await grid(admin)).rows.find((r) => r.receiverId === nbl.id)?.cells[0]?.state).toBe(
      'transferred',
    );
    // Back to the unit that passed it on: circular.
    expect(
      (await transfer(fgwleader, { receiverId: moved, orgId: orgs['310101002003'], reason: '退回' })).code,
    ).toBe('T1006');
    // A transferred part is no longer the old unit's to act on.
    expect((await transfer(njdleader, { receiverId: nbl.id, orgId: orgs[FZL], reason: 'x' })).code).toBe(
      'T1010',
    );
  });
});
