import type { RecordHistory } from '@shuzhi/contracts/diy-table';
import type { TaskDetail, TaskGrid, TaskRow } from '@shuzhi/contracts/diy-task';
import type { TaskMetrics } from '@shuzhi/contracts/diy-task-lifecycle';
import type { TaskReviewCompare, TaskReviewRow, TaskReviewStep } from '@shuzhi/contracts/diy-task-review';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Level-by-level review of a task (issue 19 §4, docs/tasks.md "Level-by-level review"): the district (hpleader)
 * asks 南京东路街道 for 社区人口月报 with review; the street hands it on to its communities; 贵州路's record is
 * passed by the street, then by the district (which approves it); a return at either level goes back to the
 * filler with the comment and a resubmission starts the levels again; who may review which level; the grid and
 * progress count a record upward only once the level above passed it; the comparison with the last period.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let hpleader: string;
let njdleader: string;
let gzlstaff: string;
let admin: string;
let formId: number;
let taskId: number;
let recordId: number;

const NJD = '310101002';
const GZL = '310101002001';
const GZL_NAME = '贵州路居民委员会';
const db = () => t.app.ctx.db;
const inDays = (days: number) => formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 16);
const detail = (token: string) => api.ok<TaskDetail>(token, 'GET', `/api/diyTask/detail?id=${taskId}`);
const grid = (token = hpleader) => api.ok<TaskGrid>(token, 'GET', `/api/diyTask/grid?id=${taskId}`);
const cellOf = async (orgName: string, token = hpleader) =>
  (await grid(token)).rows.find((r) => r.orgName === orgName)?.cells[0];
const reviews = (token: string, mine = false) =>
  api.ok<TaskReviewRow[]>(token, 'GET', `/api/diyTask/reviews?id=${taskId}${mine ? '&mine=true' : ''}`);
const review = (token: string, action: 'pass' | 'return', comment = '', ids = [recordId]) =>
  api.envelope(token, 'POST', '/api/diyTask/review', {
    taskId,
    tableId: formId,
    recordIds: ids,
    action,
    comment,
  });
const steps = (token: string) =>
  api.ok<TaskReviewStep[]>(
    token,
    'GET',
    `/api/diyTask/reviewSteps?id=${taskId}&tableId=${formId}&recordId=${recordId}`,
  );
const submittedCells = async () =>
  (await api.ok<TaskMetrics>(hpleader, 'GET', `/api/diyTask/metrics?id=${taskId}`)).units.find(
    (u) => u.orgName === GZL_NAME,
  )?.submitted;
const record = () =>
  db()
    .selectFrom(`diy_data_${formId}` as 'diy_table')
    .selectAll()
    .where('id', '=', recordId)
    .executeTakeFirstOrThrow() as unknown as Promise<{ status: number; audit_comment: string | null }>;

beforeAll(async () => {
  t = await createTestApp();
  [hpleader, njdleader, gzlstaff, admin] = await Promise.all(
    ['hpleader', 'njdleader', 'gzlstaff', 'admin'].map(async (a) => (await login(t.app, a)).accessToken),
  );
  formId = (
    await db()
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '社区人口月报')
      .executeTakeFirstOrThrow()
  ).id;
  const orgRows = await db().selectFrom('sys_org').select(['id', 'code']).execute();
  const orgs = Object.fromEntries(orgRows.map((r) => [r.code, r.id]));
  taskId = await api.ok<number>(hpleader, 'POST', '/api/diyTask/add', {
    title: '逐级审核任务',
    forms: [{ tableId: formId }],
    dueTime: inDays(10),
    receivers: { orgIds: [orgs[NJD]] },
    levelReview: true,
  });
  const street = (await detail(njdleader)).receivers.find((r) => r.mine) as TaskDetail['receivers'][number];
  await api.ok<number>(njdleader, 'POST', '/api/diyTask/handOn', {
    receiverId: street.id,
    dueTime: inDays(7),
    receivers: { orgTypes: ['community'] },
  });
  const d = await detail(hpleader);
  const period = await db()
    .selectFrom('diy_table_period')
    .select(['id', 'period_key'])
    .where('id', '=', d.forms[0]?.periodId as number)
    .executeTakeFirstOrThrow();
  recordId = await api.ok<number>(gzlstaff, 'POST', `/api/diyData/${formId}/add`, {
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
});

afterAll(async () => {
  await t?.close();
});

describe('the option', () => {
  it('is shown on the detail; a task without it has no review list; it needs forms that need review', async () => {
    expect((await detail(hpleader)).levelReview).toBe(true);
    const plain = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
      title: '不审核任务',
      forms: [{ tableId: formId }],
      dueTime: inDays(10),
      receivers: { orgTypes: ['street'] },
    });
    expect((await api.envelope(admin, 'GET', `/api/diyTask/reviews?id=${plain}`)).code).toBe('T1054');
    // A form whose records are approved on submission cannot be reviewed level by level.
    const unreviewed = await db()
      .selectFrom('diy_table')
      .select(['id', 'title'])
      .where('report_type', '=', 1)
      .where('version', '>', 0)
      .where('is_delete', '=', 0)
      .where('id', '!=', formId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('diy_table').set({ needs_review: 0 }).where('id', '=', unreviewed.id).execute();
    const refused = await api.envelope(admin, 'POST', '/api/diyTask/add', {
      title: '不可逐级审核',
      forms: [{ tableId: formId }, { tableId: unreviewed.id }],
      dueTime: inDays(10),
      receivers: { orgTypes: ['street'] },
      levelReview: true,
    });
    await db().updateTable('diy_table').set({ needs_review: 1 }).where('id', '=', unreviewed.id).execute();
    expect(refused.message).toContain(unreviewed.title);
    expect(refused.code).toBe('T1053');
    // Switched on by an edit: the same check.
    const edit = { id: plain, title: '不审核任务', dueTime: inDays(10), levelReview: true };
    await api.ok(admin, 'POST', '/api/diyTask/edit', edit);
    expect((await api.envelope(admin, 'GET', `/api/diyTask/reviews?id=${plain}`)).code).toBe(200);
    await api.ok(admin, 'POST', '/api/diyTask/edit', { ...edit, levelReview: false });
  });
});

describe('level by level', () => {
  it('a filed record waits for the street; it does not count upward yet', async () => {
    expect(await cellOf(GZL_NAME)).toMatchObject({ state: 'reviewing', awaiting: '南京东路街道' });
    expect(await cellOf('南京东路街道')).toMatchObject({ state: 'filling', done: 0, total: 3 });
    const page = await api.ok<{ items: TaskRow[] }>(hpleader, 'POST', '/api/diyTask/page', {
      scope: 'created',
    });
    expect(page.items.find((r) => r.id === taskId)).toMatchObject({ receiverCount: 3, doneCount: 0 });
    expect(await submittedCells()).toBe(0);
    const list = await reviews(njdleader, true);
    expect(list.map((r) => [r.recordId, r.awaiting, r.passed, r.levels, r.canReview])).toEqual([
      [recordId, '南京东路街道', 0, 2, true],
    ]);
    // The district sees it but cannot review it before the street; the filler sees it and reviews nothing.
    expect((await reviews(hpleader)).find((r) => r.recordId === recordId)?.canReview).toBe(false);
    expect(await reviews(hpleader, true)).toEqual([]);
    expect((await review(hpleader, 'pass')).code).toBe('T1051');
    expect((await review(gzlstaff, 'pass')).code).toBe(403);
    // Nor can the form's own review page approve it past the levels.
    const approve = await api.envelope(admin, 'POST', `/api/diyData/${formId}/audit`, {
      ids: [recordId],
      action: 'approve',
    });
    expect(approve.code).toBe('T1056');
    expect((await record()).status).toBe(1);
  });

  it('a return needs a comment; the street returns it to the filler with the comment', async () => {
    const empty = await review(njdleader, 'return');
    expect(empty.code).toBe(400);
    expect((await review(njdleader, 'return', '户籍人口与上月相差过大，请核实')).code).toBe(200);
    expect(await record()).toMatchObject({ status: 3, audit_comment: '户籍人口与上月相差过大，请核实' });
    expect((await cellOf(GZL_NAME))?.state).toBe('returned');
    expect((await review(njdleader, 'pass')).code).toBe('T1052');
    expect(await reviews(njdleader)).toEqual([]);
  });

  it('a resubmission starts at the street again; the street passes, then the district approves', async () => {
    const row = await api.ok<{ values: Record<string, unknown> }>(
      gzlstaff,
      'GET',
      `/api/diyData/${formId}/detail?id=${recordId}`,
    );
    const update = { id: recordId, values: { ...row.values, huji: 2999 }, submit: true };
    await api.ok(gzlstaff, 'PUT', `/api/diyData/${formId}/update`, update);
    expect(await cellOf(GZL_NAME)).toMatchObject({ state: 'reviewing', awaiting: '南京东路街道' });

    expect((await review(njdleader, 'pass', '已核实')).code).toBe(200);
    // Passed by the street: counts for the street, waits for the district (the task's creating unit).
    expect((await cellOf(GZL_NAME))?.state).toBe('submitted');
    expect(await cellOf('南京东路街道')).toMatchObject({ done: 1, total: 3 });
    expect(await submittedCells()).toBe(1);
    expect((await reviews(hpleader, true)).map((r) => [r.recordId, r.passed, r.awaiting])).toEqual([
      [recordId, 1, '黄浦区'],
    ]);
    expect((await review(njdleader, 'pass')).code).toBe('T1051');
    expect((await record()).status).toBe(1);

    expect((await review(hpleader, 'pass')).code).toBe(200);
    expect((await record()).status).toBe(2);
    expect((await cellOf(GZL_NAME))?.state).toBe('approved');
    expect(await reviews(hpleader)).toEqual([]);
  });

  it('the history shows every step with level, unit, comment and who', async () => {
    const list = await steps(hpleader);
    expect(list.map((s) => [s.action, s.level, s.orgName, s.comment, s.userName])).toEqual([
      ['return', 1, '南京东路街道', '户籍人口与上月相差过大，请核实', '王海燕'],
      ['pass', 1, '南京东路街道', '已核实', '王海燕'],
      ['pass', 0, '黄浦区', null, '陈建国'],
    ]);
    expect(list[1]?.submissionId).toBeGreaterThan(list[0]?.submissionId as number);
    // The filler's unit sees the steps of its own record.
    expect((await steps(gzlstaff)).length).toBe(3);
    // The record's own history has every step: the return, the street's pass and the approval, with the unit.
    const history = await api.ok<RecordHistory[]>(
      gzlstaff,
      'GET',
      `/api/diyData/${formId}/history?id=${recordId}`,
    );
    expect(
      history
        .filter((h) => ['return', 'levelPass', 'approve'].includes(h.action))
        .map((h) => [h.action, h.orgName, h.comment, h.userName]),
    ).toEqual([
      ['return', '南京东路街道', '户籍人口与上月相差过大，请核实', '王海燕'],
      ['levelPass', '南京东路街道', '已核实', '王海燕'],
      ['approve', '黄浦区', null, '陈建国'],
    ]);
    // A middle level's pass is no submission: the district judged the same submission the street passed.
    expect(history.filter((h) => h.action === 'submit')).toHaveLength(2);
  });

  it('the metrics time each level: from the submission or the pass below to the level’s pass or return', async () => {
    // The steps of this test ran within a second: they are set hours apart, each review row with its history step.
    const at = (hours: number) => formatDateTime(new Date(Date.UTC(2026, 10, 2, 1) + hours * 3_600_000));
    const rows = await db()
      .selectFrom('diy_task_review')
      .select(['id', 'submission_id', 'action', 'level'])
      .where('task_id', '=', taskId)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.action, r.level])).toEqual([
      ['return', 1],
      ['pass', 1],
      ['pass', 0],
    ]);
    const [returned, streetPass, districtPass] = rows;
    const times: [number, number][] = [
      [returned?.submission_id as number, 0],
      [returned?.id as number, 2],
      [streetPass?.submission_id as number, 5],
      [streetPass?.id as number, 8],
      [districtPass?.id as number, 14],
    ];
    for (const [id, hours] of times.slice(0, 1).concat(times.slice(2, 3)))
      await db()
        .updateTable('diy_record_history')
        .set({ create_time: at(hours) })
        .where('id', '=', id)
        .execute();
    for (const [id, hours] of [times[1], times[3], times[4]] as [number, number][])
      await db()
        .updateTable('diy_task_review')
        .set({ create_time: at(hours) })
        .where('id', '=', id)
        .execute();
    for (const [action, hours] of [
      ['return', 2],
      ['levelPass', 8],
      ['approve', 14],
    ] as const)
      await db()
        .updateTable('diy_record_history')
        .set({ create_time: at(hours) })
        .where('table_id', '=', formId)
        .where('record_id', '=', recordId)
        .where('action', '=', action)
        .execute();
    const street = await db()
      .selectFrom('sys_org')
      .select('type')
      .where('code', '=', NJD)
      .executeTakeFirstOrThrow();
    const metrics = await api.ok<TaskMetrics>(hpleader, 'GET', `/api/diyTask/metrics?id=${taskId}`);
    // The street: returned after 2 h, passed the resubmission after 3 h; the district: approved 6 h after the pass.
    expect(metrics.reviewLevels).toEqual([
      { level: 1, orgType: street.type, passes: 1, returns: 1, avgReviewHours: 2.5 },
      { level: 0, orgType: null, passes: 1, returns: 0, avgReviewHours: 6 },
    ]);
    // The figure of old stays submission → approve / return: (2 + 9) / 2 hours.
    expect(metrics.total.avgReviewHours).toBe(5.5);
    // A unit that sees only its own filing sees the same levels of it; a task without level review has none.
    expect(
      (await api.ok<TaskMetrics>(gzlstaff, 'GET', `/api/diyTask/metrics?id=${taskId}`)).reviewLevels,
    ).toEqual(metrics.reviewLevels);
  });

  it('refuses a record that is not under the task and a form that is not the task’s', async () => {
    expect((await review(njdleader, 'pass', '', [987654321])).code).toBe('T1050');
    const other = await api.envelope(njdleader, 'POST', '/api/diyTask/review', {
      taskId,
      tableId: 987654321,
      recordIds: [recordId],
      action: 'pass',
    });
    expect(other.code).toBe('T1036');
  });
});

describe('the comparison with the last period', () => {
  it('answers each figure beside the unit’s record of the previous period', async () => {
    const compare = await api.ok<TaskReviewCompare>(
      njdleader,
      'GET',
      `/api/diyTask/reviewCompare?id=${taskId}&tableId=${formId}&recordId=${recordId}`,
    );
    expect(compare.lastRecordId).not.toBeNull();
    const huji = compare.fields.find((f) => f.field === 'huji');
    // Last month's seeded record of 贵州路: 户籍 2995.
    expect(huji).toMatchObject({ label: '户籍人口', value: 2999, lastValue: 2995, change: 4 });
    expect(huji?.ratio).toBeCloseTo(4 / 2995, 5);
    const jingwai = compare.fields.find((f) => f.field === 'jingwai');
    expect(jingwai).toMatchObject({ value: null, lastValue: 39, change: null });
    const bad = `/api/diyTask/reviewCompare?id=${taskId}&tableId=${formId}&recordId=987654321`;
    expect((await api.envelope(njdleader, 'GET', bad)).code).toBe('T1050');
  });
});

describe('closed task', () => {
  it('takes no review', async () => {
    await api.ok(hpleader, 'POST', '/api/diyTask/close', { id: taskId });
    expect((await review(hpleader, 'pass')).code).toBe('T1055');
  });
});
