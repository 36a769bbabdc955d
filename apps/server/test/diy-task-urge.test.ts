import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import type { TaskUrgeRecord, TaskUrgeResult } from '@shuzhi/contracts/diy-task-urge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueStep, inQuietHours, runTaskUrges } from '../src/modules/diy-task/task-urge.job.ts';
import { formatDateTime, parseDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, setConfig, type TestApp } from './helpers.ts';

/**
 * Urging (issue 19 §3, docs/tasks.md "Urging"): by hand from the grid (who may urge whom, refusals), the
 * automatic ladder (timing, fillers before the due time and leaders after it, once only with two runs at the
 * same time, quiet hours, closed task and period), the SMS outcomes through a fake gateway, the record, and
 * the top bar's count.
 */
const GZL_LEADER_PHONE = '13764218875'; // gzlleader: the fake gateway refuses this number
const GZL_STAFF_PHONE = '18616035729';
const DAY = 86_400_000;

let fake: Server;
let t: TestApp;
const api = apiCalls(() => t.app);
const texts: { phone: string; template: string; text?: string }[] = [];
let admin: string;
let njdleader: string;
let gzlleader: string;
let gzlstaff: string;
let mzjchief: string;
let formId: number;
let orgs: Record<string, number>;
let users: Record<string, number>;

const NJD = '310101002';
const GZL = '310101002001';
const FZL = '310101002002';
const db = () => t.app.ctx.db;
const inDays = (days: number) => formatDateTime(new Date(Date.now() + days * DAY)).slice(0, 16);
const never = new AbortController().signal;
const run = (now: Date) => runTaskUrges(t.app.ctx, never, now);

async function newTask(title: string, orgCodes: string[], extra: Record<string, unknown> = {}) {
  return api.ok<number>(admin, 'POST', '/api/diyTask/add', {
    title,
    forms: [{ tableId: formId }],
    dueTime: inDays(10),
    receivers: { orgIds: orgCodes.map((c) => orgs[c]) },
    ...extra,
  });
}

const receiverOf = async (taskId: number, code: string) =>
  db()
    .selectFrom('diy_task_receiver')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('org_id', '=', orgs[code] as number)
    .executeTakeFirstOrThrow();

const records = (taskId: number) =>
  db().selectFrom('diy_task_urge').selectAll().where('task_id', '=', taskId).orderBy('id').execute();

/** The users a notice went to. */
const audience = async (noticeId: number | null) =>
  (
    await db()
      .selectFrom('sys_notice_user')
      .select('user_id')
      .where('notice_id', '=', noticeId ?? 0)
      .execute()
  )
    .map((r) => r.user_id)
    .sort();

beforeAll(async () => {
  fake = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => {
      const json = JSON.parse(data || '{}') as { phone: string; template: string; text?: string };
      if (json.phone === GZL_LEADER_PHONE) {
        res.writeHead(502).end('gateway down');
        return;
      }
      texts.push(json);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { SMS_PROVIDER: 'http', SMS_HTTP_URL: `${base}/sms` } });
  [admin, njdleader, gzlleader, gzlstaff, mzjchief] = await Promise.all(
    ['admin', 'njdleader', 'gzlleader', 'gzlstaff', 'mzjchief'].map(
      async (a) => (await login(t.app, a)).accessToken,
    ),
  );
  formId = (
    await db()
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '社区人口月报')
      .executeTakeFirstOrThrow()
  ).id;
  orgs = Object.fromEntries(
    (await db().selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  users = Object.fromEntries(
    (await db().selectFrom('sys_user').select(['id', 'account']).execute()).map((r) => [r.account, r.id]),
  );
  await setConfig(t.app, 'diy_task_urge_quiet_hours', '');
});

afterAll(async () => {
  await t?.close();
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

describe('urging by hand', () => {
  let taskId: number;

  it('the creator urges a community: a notice to its people, an SMS each, every outcome recorded', async () => {
    taskId = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
      title: '手动催办任务',
      forms: [{ tableId: formId }],
      dueTime: inDays(10),
      receivers: { orgIds: [orgs[NJD]], subtree: true, orgTypes: ['street', 'community'] },
      urge: { enabled: false },
    });
    const gzl = await receiverOf(taskId, GZL);
    const result = await api.ok<TaskUrgeResult>(admin, 'POST', '/api/diyTask/urge', {
      taskId,
      receiverIds: [gzl.id],
      message: '请今天下班前完成填报',
    });
    expect(result).toEqual({ units: 1, people: 2, smsSent: 1, smsFailed: 1, smsPending: 0 });
    expect(texts.at(-1)).toMatchObject({ phone: GZL_STAFF_PHONE, template: 'taskUrge' });
    expect(texts.at(-1)?.text).toContain('请今天下班前完成填报');
    const list = await api.ok<TaskUrgeRecord[]>(admin, 'GET', `/api/diyTask/urges?id=${taskId}`);
    expect(list.map((r) => [r.channel, r.outcome, r.userName, r.phone, r.step, r.senderName]).sort()).toEqual(
      [
        ['notice', 'sent', null, null, 'manual', '系统管理员'],
        ['sms', 'failed', '李秀英', '137****8875', 'manual', '系统管理员'],
        ['sms', 'sent', '吴静', '186****5729', 'manual', '系统管理员'],
      ].sort(),
    );
    const unread = await api.ok<{ items: { title: string }[] }>(
      gzlstaff,
      'GET',
      '/api/sysNotice/unReadSummary',
    );
    expect(unread.items.map((n) => n.title)).toContain('【催办】手动催办任务');
    // The community sees its own reminders; an outsider sees nothing of the task.
    expect((await api.ok<TaskUrgeRecord[]>(gzlleader, 'GET', `/api/diyTask/urges?id=${taskId}`)).length).toBe(
      3,
    );
    expect(await api.code(mzjchief, 'GET', `/api/diyTask/urges?id=${taskId}`)).toBe('T1000');
  });

  it('a street urges the communities it was handed; a community urges neither itself nor a sibling', async () => {
    const fzl = await receiverOf(taskId, FZL);
    const gzl = await receiverOf(taskId, GZL);
    const urge = (token: string, ids: number[]) =>
      api.envelope(token, 'POST', '/api/diyTask/urge', { taskId, receiverIds: ids, message: '请抓紧' });
    expect((await urge(njdleader, [fzl.id])).code).toBe(200);
    const refused = await urge(gzlleader, [gzl.id]);
    expect(refused.code).toBe('T1020');
    expect(refused.message).toContain('贵州路居民委员会');
    expect((await urge(gzlleader, [fzl.id])).code).toBe('T1020');
    // Staff hold no diyTask:urge; bad input is a 400.
    expect((await urge(gzlstaff, [fzl.id])).code).toBe(403);
    expect((await api.envelope(admin, 'POST', '/api/diyTask/urge', { taskId, receiverIds: [] })).code).toBe(
      400,
    );
    expect((await urge(admin, [987654321])).code).toBe('T1020');
  });

  it('beyond 20 texts answers at once; the texts go out after the answer and are recorded', async () => {
    const id = await newTask('大量短信催办', [FZL], { urge: { enabled: false } });
    const staff = await db()
      .selectFrom('sys_user')
      .selectAll()
      .where('account', '=', 'gzlstaff')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('sys_user')
      .values(
        Array.from({ length: 21 }, (_, i) => ({
          ...staff,
          id: t.app.ctx.newId(),
          account: `fzlbulk${i}`,
          phone: `1390000${String(i).padStart(4, '0')}`,
          id_card_num: null,
          org_id: orgs[FZL] as number,
        })),
      )
      .execute();
    const fzl = await receiverOf(id, FZL);
    const result = await api.ok<TaskUrgeResult>(admin, 'POST', '/api/diyTask/urge', {
      taskId: id,
      receiverIds: [fzl.id],
      message: '请尽快填报',
    });
    expect(result).toMatchObject({ units: 1, smsSent: 0, smsFailed: 0, smsPending: 21 });
    await expect
      .poll(async () => (await records(id)).filter((r) => r.outcome === 'sent' && r.channel === 'sms').length)
      .toBe(21);
    await db().updateTable('sys_user').set({ is_delete: 1 }).where('account', 'like', 'fzlbulk%').execute();
  });

  it('refuses a transferred part (T1021) and a closed task (T1022), writing nothing', async () => {
    const id = await newTask('转办后催办', [GZL], { urge: { enabled: false } });
    const gzl = await receiverOf(id, GZL);
    await api.ok(gzlleader, 'POST', '/api/diyTask/transfer', {
      receiverId: gzl.id,
      orgId: orgs[FZL],
      reason: '代填',
    });
    const urge = () =>
      api.envelope(admin, 'POST', '/api/diyTask/urge', { taskId: id, receiverIds: [gzl.id], message: '催' });
    expect((await urge()).code).toBe('T1021');
    await db().updateTable('diy_task').set({ state: 'closed' }).where('id', '=', id).execute();
    expect((await urge()).code).toBe('T1022');
    expect(await records(id)).toEqual([]);
  });
});

describe('the automatic ladder', () => {
  it('computes the step due: before the due time while it lies ahead, then daily up to the limit', () => {
    const plan = { enabled: true, beforeDays: [3, 1], afterDays: 2 };
    const due = parseDateTime('2026-12-10 18:00:00');
    const since = parseDateTime('2026-12-01 09:00:00');
    const at = (text: string) => dueStep(plan, due, since, parseDateTime(text))?.name ?? null;
    expect(at('2026-12-07 17:59:00')).toBeNull();
    expect(at('2026-12-07 18:00:00')).toBe('T-3');
    expect(at('2026-12-09 20:00:00')).toBe('T-1');
    // Past the due time, before T+1: a reminder that it is due soon would be wrong.
    expect(at('2026-12-10 19:00:00')).toBeNull();
    expect(at('2026-12-11 18:00:00')).toBe('T+1');
    expect(at('2026-12-30 08:00:00')).toBe('T+2');
    // Received two days before the due time: T−3 lies before it and is never due.
    expect(
      dueStep(plan, due, parseDateTime('2026-12-08 12:00:00'), parseDateTime('2026-12-08 13:00:00')),
    ).toBeNull();
  });

  it('quiet hours over midnight and within a day', () => {
    expect(inQuietHours('22:00-08:00', parseDateTime('2026-12-01 23:30:00'))).toBe(true);
    expect(inQuietHours('22:00-08:00', parseDateTime('2026-12-02 07:59:00'))).toBe(true);
    expect(inQuietHours('22:00-08:00', parseDateTime('2026-12-02 08:00:00'))).toBe(false);
    expect(inQuietHours('12:00-13:30', parseDateTime('2026-12-02 12:45:00'))).toBe(true);
    expect(inQuietHours('', parseDateTime('2026-12-02 02:00:00'))).toBe(false);
    expect(inQuietHours('nonsense', parseDateTime('2026-12-02 02:00:00'))).toBe(false);
  });

  it('sends each step once: fillers before the due time, leaders too after it, SMS outcomes recorded', async () => {
    const id = await newTask('自动催办任务', [GZL, FZL]);
    const gzl = await receiverOf(id, GZL);
    const due = parseDateTime(gzl.due_time).getTime();
    const steps = async () =>
      (await records(id))
        .filter((r) => r.channel === 'notice' && r.receiver_id === gzl.id)
        .map((r) => r.step);
    await run(new Date(due - 5 * DAY));
    expect(await steps()).toEqual([]);
    await run(new Date(due - 3 * DAY + 60_000));
    await run(new Date(due - 3 * DAY + 120_000));
    expect(await steps()).toEqual(['T-3']);
    const early = (await records(id)).find((r) => r.receiver_id === gzl.id && r.channel === 'notice');
    expect(early?.outcome).toBe('sent');
    expect(await audience(early?.notice_id ?? null)).toEqual([users.gzlstaff]);
    await run(new Date(due - DAY + 60_000));
    await run(new Date(due + DAY + 60_000));
    expect(await steps()).toEqual(['T-3', 'T-1', 'T+1']);
    const late = (await records(id)).filter((r) => r.receiver_id === gzl.id && r.step === 'T+1');
    const notice = late.find((r) => r.channel === 'notice');
    expect(await audience(notice?.notice_id ?? null)).toEqual([users.gzlleader, users.gzlstaff].sort());
    expect(
      late
        .filter((r) => r.channel === 'sms')
        .map((r) => [r.user_name, r.outcome])
        .sort(),
    ).toEqual([
      ['吴静', 'sent'],
      ['李秀英', 'failed'],
    ]);
    // Days later the latest step goes (T+3), then nothing more.
    await run(new Date(due + 10 * DAY));
    await run(new Date(due + 11 * DAY));
    expect(await steps()).toEqual(['T-3', 'T-1', 'T+1', 'T+3']);
    await db().updateTable('diy_task').set({ urge_plan: null }).where('id', '=', id).execute();
  });

  it('two runs at the same moment send each reminder once', async () => {
    const id = await newTask('并发催办任务', [GZL, FZL]);
    const gzl = await receiverOf(id, GZL);
    const now = new Date(parseDateTime(gzl.due_time).getTime() - DAY + 60_000);
    const [a, b] = await Promise.all([run(now), run(now)]);
    const notices = (await records(id)).filter((r) => r.channel === 'notice');
    expect(notices.map((r) => r.step)).toEqual(['T-1', 'T-1']);
    expect(new Set(notices.map((r) => r.receiver_id)).size).toBe(2);
    expect(a.reminded + b.reminded).toBe(2);
    const sent = await db()
      .selectFrom('sys_notice')
      .select('id')
      .where('title', '=', '【到期提醒】并发催办任务')
      .execute();
    expect(sent).toHaveLength(new Set(notices.flatMap((r) => (r.notice_id ? [r.notice_id] : []))).size);
    expect(sent).toHaveLength(1);
    await db().updateTable('diy_task').set({ urge_plan: null }).where('id', '=', id).execute();
  });

  it('in quiet hours nothing goes out; the step goes when they end', async () => {
    await setConfig(t.app, 'diy_task_urge_quiet_hours', '22:00-08:00');
    const date = inDays(10).slice(0, 10);
    const id = await newTask('免打扰任务', [GZL], { dueTime: `${date} 23:00` });
    const due = parseDateTime(`${date} 23:00:00`).getTime();
    // T−1 falls at 23:00 the evening before: quiet.
    const quiet = await run(new Date(due - DAY + 60_000));
    expect(quiet.quiet).toBe(true);
    expect(await records(id)).toEqual([]);
    // 08:01 the next morning (still before the due time): it goes.
    const morning = await run(new Date(due - 15 * 3_600_000 + 60_000));
    expect(morning.quiet).toBe(false);
    expect((await records(id)).filter((r) => r.channel === 'notice').map((r) => r.step)).toEqual(['T-1']);
    await setConfig(t.app, 'diy_task_urge_quiet_hours', '');
    await db().updateTable('diy_task').set({ urge_plan: null }).where('id', '=', id).execute();
  });

  it('a closed period or task: the step is recorded as skipped, not sent, and no later step follows', async () => {
    const id = await newTask('关闭期间任务', [GZL]);
    const closedTask = await newTask('已关闭任务', [FZL]);
    await db().updateTable('diy_task').set({ state: 'closed' }).where('id', '=', closedTask).execute();
    const gzl = await receiverOf(id, GZL);
    const periodId = (
      await db()
        .selectFrom('diy_task_form')
        .select('period_id')
        .where('task_id', '=', id)
        .executeTakeFirstOrThrow()
    ).period_id as number;
    const due = parseDateTime(gzl.due_time).getTime();
    const before = await db().selectFrom('sys_notice').select('id').execute();
    await db().updateTable('diy_table_period').set({ closed: 1 }).where('id', '=', periodId).execute();
    try {
      await run(new Date(due - DAY + 60_000));
      await run(new Date(due + DAY + 60_000));
    } finally {
      await db().updateTable('diy_table_period').set({ closed: 0 }).where('id', '=', periodId).execute();
    }
    expect((await records(id)).map((r) => [r.step, r.channel, r.outcome, r.notice_id])).toEqual([
      ['T-1', 'notice', 'periodClosed', null],
    ]);
    expect((await records(closedTask)).map((r) => [r.step, r.outcome])).toEqual([['T-1', 'taskClosed']]);
    expect((await db().selectFrom('sys_notice').select('id').execute()).length).toBe(before.length);
    for (const task of [id, closedTask])
      await db().updateTable('diy_task').set({ urge_plan: null }).where('id', '=', task).execute();
  });
});

describe('the ladder of a task', () => {
  it('refuses a bad ladder with a field error, shows the plan on the detail, and an edit changes it', async () => {
    const bad = async (urge: Record<string, unknown>) => {
      const env = await api.envelope(admin, 'POST', '/api/diyTask/add', {
        title: '坏的催办计划',
        forms: [{ tableId: formId }],
        dueTime: inDays(10),
        receivers: { orgIds: [orgs[GZL]] },
        urge,
      });
      expect(env.code).toBe(400);
      return Object.keys((env as { errors?: Record<string, unknown> }).errors ?? {});
    };
    expect(await bad({ beforeDays: [0] })).toEqual(['urge.beforeDays.0']);
    expect(await bad({ beforeDays: [3, 31] })).toEqual(['urge.beforeDays.1']);
    expect(await bad({ beforeDays: [1.5] })).toEqual(['urge.beforeDays.0']);
    expect(await bad({ beforeDays: [1, 2, 3, 4, 5, 6] })).toEqual(['urge.beforeDays']);
    expect(await bad({ afterDays: 31 })).toEqual(['urge.afterDays']);
    expect(await bad({ afterDays: -1 })).toEqual(['urge.afterDays']);
    expect(
      await db().selectFrom('diy_task').select('id').where('title', '=', '坏的催办计划').execute(),
    ).toEqual([]);
    const id = await newTask('自定催办计划', [GZL], { urge: { beforeDays: [1, 7, 7], afterDays: 0 } });
    const detail = async () => api.ok<TaskDetail>(admin, 'GET', `/api/diyTask/detail?id=${id}`);
    expect((await detail()).urge).toEqual({ enabled: true, beforeDays: [7, 1], afterDays: 0 });
    const edit = (urge: Record<string, unknown> | undefined) =>
      api.envelope(admin, 'POST', '/api/diyTask/edit', {
        id,
        title: '自定催办计划',
        dueTime: inDays(10),
        ...(urge ? { urge } : {}),
      });
    expect((await edit({ beforeDays: [40] })).code).toBe(400);
    expect((await edit({ beforeDays: [5], afterDays: 2 })).code).toBe(200);
    expect((await detail()).urge).toEqual({ enabled: true, beforeDays: [5], afterDays: 2 });
    // An edit that leaves the ladder out keeps it.
    expect((await edit(undefined)).code).toBe(200);
    expect((await detail()).urge).toEqual({ enabled: true, beforeDays: [5], afterDays: 2 });
    expect((await edit({ enabled: false })).code).toBe(200);
    const off = await detail();
    expect(off.urge).toBeNull();
    expect(off.events.filter((e) => e.action === 'edit').map((e) => e.comment)).toEqual([
      '自动催办：到期前 5 天，逾期后每日提醒 2 天',
      null,
      '自动催办：关闭',
    ]);
  });
});

describe('the top bar count', () => {
  it('counts my open parts not yet done; a closed task leaves the count', async () => {
    const count = () => api.ok<number>(gzlstaff, 'GET', '/api/diyTask/mineCount');
    const before = await count();
    const id = await newTask('计数任务', [GZL], { urge: { enabled: false } });
    expect(await count()).toBe(before + 1);
    expect(await api.ok<number>(mzjchief, 'GET', '/api/diyTask/mineCount')).toBe(0);
    await db().updateTable('diy_task').set({ state: 'closed' }).where('id', '=', id).execute();
    expect(await count()).toBe(before);
  });

  it('a unit that filed leaves the count and can no longer be urged (T1021)', async () => {
    const id = await newTask('已填报任务', [GZL], { urge: { enabled: false } });
    const count = () => api.ok<number>(gzlstaff, 'GET', '/api/diyTask/mineCount');
    const before = await count();
    const period = await db()
      .selectFrom('diy_task_form as tf')
      .innerJoin('diy_table_period as p', 'p.id', 'tf.period_id')
      .select(['p.id', 'p.period_key'])
      .where('tf.task_id', '=', id)
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
    // Every open task of 贵州路 for this form and period is done now.
    expect(await count()).toBeLessThan(before);
    const gzl = await receiverOf(id, GZL);
    const refused = await api.envelope(admin, 'POST', '/api/diyTask/urge', {
      taskId: id,
      receiverIds: [gzl.id],
      message: '催',
    });
    expect(refused.code).toBe('T1021');
  });
});
