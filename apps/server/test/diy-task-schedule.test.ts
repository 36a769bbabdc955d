import type { ScheduleRow, ScheduleRun } from '@shuzhi/contracts/diy-task-schedule';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { runSchedules } from '../src/modules/diy-task/task-schedule.job.ts';
import { formatDateTime, parseDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, TEST_HASH_COST, type TestApp } from './helpers.ts';

/**
 * Scheduled tasks (issue 19 §6, docs/tasks.md): a schedule of 社区人口月报 makes one task per new month through the
 * create code, once also when two processes run at the same moment; a missed month is caught up once; a month
 * already past its due offset is recorded as skipped; a paused schedule makes nothing; the routes' refusals and
 * data scope. The job is run with a chosen `now` (the months of 2027), as the scheduler would run it then.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let njdleader: string;
let gzlstaff: string;
let formId: number;
let otherFormId: number;
let orgs: Record<string, number>;
let scheduleId: number;

const NJD = '310101002';
const WT = '310101013';
const db = () => t.app.ctx.db;
const at = (text: string) => parseDateTime(text);
const runs = (token = admin, id = scheduleId) =>
  api.ok<ScheduleRun[]>(token, 'GET', `/api/diyTaskSchedule/runs?id=${id}`);
const tasksOf = async (id = scheduleId) =>
  db()
    .selectFrom('diy_task_schedule_run as r')
    .innerJoin('diy_task as t', 't.id', 'r.task_id')
    .innerJoin('diy_task_form as f', 'f.task_id', 't.id')
    .innerJoin('diy_table_period as p', 'p.id', 'f.period_id')
    .select(['t.id', 't.title', 't.due_time', 'p.period_key'])
    .where('r.schedule_id', '=', id)
    .orderBy('p.period_key')
    .execute();
const schedule = (body: Record<string, unknown>) => ({
  title: '社区人口月报计划',
  tableIds: [formId],
  receivers: { orgIds: [orgs[NJD], orgs[WT]] },
  instructions: '<p>每月按时填报</p>',
  due: { anchor: 'start', days: 10, at: '18:00' },
  ...body,
});

beforeAll(async () => {
  t = await createTestApp();
  [admin, njdleader, gzlstaff] = await Promise.all(
    ['admin', 'njdleader', 'gzlstaff'].map(async (a) => (await login(t.app, a)).accessToken),
  );
  const forms = await db().selectFrom('diy_table').select(['id', 'title']).execute();
  formId = forms.find((f) => f.title === '社区人口月报')?.id as number;
  otherFormId = forms.find((f) => f.title === '安全生产检查记录')?.id as number;
  const orgRows = await db().selectFrom('sys_org').select(['id', 'code']).execute();
  orgs = Object.fromEntries(orgRows.map((r) => [r.code, r.id]));
});

afterAll(async () => {
  await t?.close();
});

describe('schedules', () => {
  it('are added, listed and refused with catalogue codes and field errors', async () => {
    scheduleId = await api.ok<number>(admin, 'POST', '/api/diyTaskSchedule/add', schedule({}));
    const page = await api.ok<PageResult<ScheduleRow>>(admin, 'POST', '/api/diyTaskSchedule/page', {});
    const row = page.items.find((s) => s.id === scheduleId);
    expect(row).toMatchObject({
      state: 'active',
      periodKind: 'month',
      orgNames: ['南京东路街道', '外滩街道'],
      due: { anchor: 'start', days: 10, at: '18:00' },
      lastRun: null,
    });
    const add = (body: Record<string, unknown>) =>
      api.code(admin, 'POST', '/api/diyTaskSchedule/add', schedule(body));
    expect(await add({ tableIds: [otherFormId] })).toBe('T1041');
    expect(await add({ tableIds: [formId, otherFormId] })).toBe('T1041');
    expect(await add({ tableIds: [999_999] })).toBe('T1002');
    // 区政府办公室 is no unit of the form's fill scope (T1004); an unknown org (T1003).
    expect(await add({ receivers: { orgIds: [orgs['HPQ-ZFB']] } })).toBe('T1004');
    expect(await add({ receivers: { orgIds: [987654321] } })).toBe('T1003');
    expect(await add({ due: { anchor: 'start', days: 1, at: '25:00' } })).toBe(400);
    expect(await add({ due: { anchor: 'middle', days: 1, at: '08:00' } })).toBe(400);
    expect(await add({ title: '' })).toBe(400);
    // Without the permission, and outside the data scope of a street.
    expect(await api.code(gzlstaff, 'POST', '/api/diyTaskSchedule/add', schedule({}))).toBe(403);
    const street = await api.ok<PageResult<ScheduleRow>>(njdleader, 'POST', '/api/diyTaskSchedule/page', {});
    expect(street.items.map((s) => s.id)).not.toContain(scheduleId);
    expect(await api.code(njdleader, 'GET', `/api/diyTaskSchedule/runs?id=${scheduleId}`)).toBe('T1040');
    expect(await api.code(njdleader, 'POST', '/api/diyTaskSchedule/pause', { id: scheduleId })).toBe('T1040');
  });

  it('records the period holding today as skipped once its due offset has passed', async () => {
    // As if made on 1 November 2026 (whatever the day the test runs): a first run on 20 December sees November
    // and December, both past their due (the 11th at 18:00).
    await db()
      .updateTable('diy_task_schedule')
      .set({ since_date: '2026-11-01' })
      .where('id', '=', scheduleId)
      .execute();
    const counts = await runSchedules(t.app.ctx, at('2026-12-20 09:00:00'));
    const seen = await runs();
    const november = seen.find((r) => r.periodKey === '2026-11');
    const december = seen.find((r) => r.periodKey === '2026-12');
    expect(december).toMatchObject({
      outcome: 'skipped',
      code: 'T1044',
      taskId: null,
      dueTime: '2026-12-11 18:00',
    });
    expect(december?.reason).toContain('2026-12-11 18:00');
    expect(november).toMatchObject({ outcome: 'skipped', code: 'T1044' });
    expect(counts).toEqual({ created: 0, skipped: 2, failed: 0 });
  });

  it('makes one task for a new period through the create code, and nothing more on the next run', async () => {
    const before = (await tasksOf()).length;
    expect((await runSchedules(t.app.ctx, at('2027-01-02 08:00:00'))).created).toBe(1);
    expect((await runSchedules(t.app.ctx, at('2027-01-03 08:00:00'))).created).toBe(0);
    const tasks = await tasksOf();
    expect(tasks).toHaveLength(before + 1);
    const jan = tasks.find((x) => x.period_key === '2027-01');
    expect(jan).toMatchObject({ title: '社区人口月报计划（2027年1月）', due_time: '2027-01-11 18:00:00' });
    const receivers = await db()
      .selectFrom('diy_task_receiver')
      .select('org_name')
      .where('task_id', '=', jan?.id as number)
      .orderBy('org_name')
      .execute();
    expect(receivers.map((r) => r.org_name).sort()).toEqual(['南京东路街道', '外滩街道'].sort());
    const events = await db()
      .selectFrom('diy_task_event')
      .select('action')
      .where('task_id', '=', jan?.id as number)
      .execute();
    expect(events.map((e) => e.action)).toEqual(['create']);
    const last = (await runs())[0];
    expect(last).toMatchObject({ periodKey: '2027-01', outcome: 'created', taskId: jan?.id, reason: null });
  });

  it('makes the task once when two processes run at the same moment', async () => {
    const other: FastifyInstance = await buildApp({
      config: t.config,
      logger: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
      regionSource: null,
    });
    try {
      const now = at('2027-02-01 09:00:00');
      const [a, b] = await Promise.all([runSchedules(t.app.ctx, now), runSchedules(other.ctx, now)]);
      expect(a.created + b.created).toBe(1);
    } finally {
      await other.close();
    }
    expect((await tasksOf()).filter((x) => x.period_key === '2027-02')).toHaveLength(1);
    const rows = await db()
      .selectFrom('diy_task_schedule_run')
      .select('id')
      .where('schedule_id', '=', scheduleId)
      .where('period_key', '=', '2027-02')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('catches a missed period up once, and records a missed one already past due as skipped', async () => {
    // The server was down from late February to 5 March: March opened without a run.
    expect(await runSchedules(t.app.ctx, at('2027-03-05 07:00:00'))).toMatchObject({
      created: 1,
      skipped: 0,
    });
    expect(await runSchedules(t.app.ctx, at('2027-03-05 07:05:00'))).toMatchObject({
      created: 0,
      skipped: 0,
    });
    // Down from late March to 20 April: April's due (11 April) passed unseen: skipped, with its reason.
    expect(await runSchedules(t.app.ctx, at('2027-04-20 07:00:00'))).toMatchObject({
      created: 0,
      skipped: 1,
    });
    const april = (await runs()).find((r) => r.periodKey === '2027-04');
    expect(april).toMatchObject({ outcome: 'skipped', code: 'T1044', taskId: null });
    expect((await tasksOf()).filter((x) => x.period_key === '2027-03')).toHaveLength(1);
  });

  it('makes nothing while paused; resumed, it goes on with the next period; deleted, it stops', async () => {
    await api.ok(admin, 'POST', '/api/diyTaskSchedule/pause', { id: scheduleId });
    expect(await runSchedules(t.app.ctx, at('2027-05-02 08:00:00'))).toMatchObject({
      created: 0,
      skipped: 0,
    });
    expect((await runs()).some((r) => r.periodKey === '2027-05')).toBe(false);
    const paused = await api.ok<PageResult<ScheduleRow>>(admin, 'POST', '/api/diyTaskSchedule/page', {
      state: 'paused',
    });
    expect(paused.items.map((s) => s.id)).toEqual([scheduleId]);
    await api.ok(admin, 'POST', '/api/diyTaskSchedule/resume', { id: scheduleId });
    expect((await runSchedules(t.app.ctx, at('2027-06-02 08:00:00'))).created).toBeGreaterThanOrEqual(1);
    expect((await tasksOf()).some((x) => x.period_key === '2027-06')).toBe(true);
    await api.ok(admin, 'POST', '/api/diyTaskSchedule/delete', { id: scheduleId });
    expect((await runSchedules(t.app.ctx, at('2027-07-02 08:00:00'))).created).toBe(0);
    expect(await api.code(admin, 'GET', `/api/diyTaskSchedule/runs?id=${scheduleId}`)).toBe('T1040');
  });

  it('records why a period got no task when the create code refuses it', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTaskSchedule/add', schedule({ title: '停用后' }));
    await api.ok(admin, 'POST', '/api/diyTaskSchedule/update', {
      id,
      ...schedule({ title: '停用后', due: { anchor: 'due', days: 0, at: '17:00' } }),
    });
    // The form is switched off: the create code refuses it (T1002), the period keeps that reason, once.
    await db().updateTable('diy_table').set({ status: 2 }).where('id', '=', formId).execute();
    try {
      expect((await runSchedules(t.app.ctx, at('2027-08-03 08:00:00'))).failed).toBeGreaterThanOrEqual(1);
      expect((await runSchedules(t.app.ctx, at('2027-08-04 08:00:00'))).failed).toBe(0);
    } finally {
      await db().updateTable('diy_table').set({ status: 1 }).where('id', '=', formId).execute();
    }
    const august = (await runs(admin, id)).find((r) => r.periodKey === '2027-08');
    expect(august).toMatchObject({ outcome: 'failed', code: 'T1002', taskId: null });
    // The due offset counts back from the period's due date (5 days after the month): 5 September at 17:00.
    expect(august?.dueTime).toBe('2027-09-05 17:00');
  });
});

describe('task receivers by role and by named user (their units)', () => {
  const inDays = (days: number) => formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 16);
  const add = (receivers: Record<string, unknown>) =>
    api.envelope<number>(admin, 'POST', '/api/diyTask/add', {
      title: '按人员下发',
      forms: [{ tableId: formId }],
      dueTime: inDays(5),
      receivers,
    });
  const idOf = async (table: 'sys_user' | 'sys_role', column: 'account' | 'code', value: string) =>
    (
      await db()
        .selectFrom(table as 'sys_user')
        .select('id')
        .where(column as 'account', '=', value)
        .executeTakeFirstOrThrow()
    ).id;
  const receiverNames = async (taskId: number) =>
    (
      await db().selectFrom('diy_task_receiver').select('org_name').where('task_id', '=', taskId).execute()
    ).map((r) => r.org_name);

  it('sends to the unit of a named user, and to the units of a role’s users that can fill', async () => {
    const gzlstaffId = await idOf('sys_user', 'account', 'gzlstaff');
    const byUser = await add({ userIds: [gzlstaffId] });
    expect(byUser.code, JSON.stringify(byUser)).toBe(200);
    expect(await receiverNames(byUser.result as number)).toEqual(['贵州路居民委员会']);
    const staff = await idOf('sys_role', 'code', 'staff');
    const byRole = await add({ roleIds: [staff] });
    expect(byRole.code, JSON.stringify(byRole)).toBe(200);
    const names = await receiverNames(byRole.result as number);
    expect(names).toEqual(expect.arrayContaining(['南京东路街道', '贵州路居民委员会']));
    // The task is asked of units: the same rules as units chosen by hand.
    const mzj = await idOf('sys_user', 'account', 'mzjchief');
    const unfit = await add({ userIds: [mzj] });
    expect(unfit.code).toBe('T1004');
    expect((await add({ userIds: [987_654_321] })).code).toBe('T1003');
    expect((await add({ roleIds: [987_654_321] })).code).toBe('T1003');
  });

  it('lists the enabled roles to pick from for those who see tasks, and to no one else', async () => {
    const roles = await api.ok<{ id: number; name: string }[]>(njdleader, 'GET', '/api/diyTask/pickRoles');
    expect(roles.map((r) => r.id)).toContain(await idOf('sys_role', 'code', 'staff'));
    const outsider = (await login(t.app, 'qyfiller')).accessToken;
    expect(await api.code(outsider, 'GET', '/api/diyTask/pickRoles')).toBe(403);
  });
});
