import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TaskUrgeRecord } from '@shuzhi/contracts/diy-task-urge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTaskUrges } from '../src/modules/diy-task/task-urge.job.ts';
import { formatDateTime, parseDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, setConfig, type TestApp } from './helpers.ts';

/**
 * SMS retry of task reminders (docs/tasks.md "Urging"): a text the gateway refused is tried again by the ladder
 * job 5 and then 30 minutes later, 3 attempts in all, each counted on its row with the last error; two runs at
 * the same moment try it once; the phone stays whole on the row only while another attempt is due.
 */
const LEADER_PHONE = '13764218875'; // gzlleader, of 贵州路居民委员会
const MINUTE = 60_000;

let fake: Server;
let t: TestApp;
const api = apiCalls(() => t.app);
/** Phones the fake gateway refuses (HTTP 502). */
const refused = new Set<string>();
/** Every text the gateway was asked to send, by phone, refused or not. */
const asked = new Map<string, number>();
let admin: string;
let formId: number;
let gzlOrgId: number;

const db = () => t.app.ctx.db;
const never = new AbortController().signal;
const run = (now: Date) => runTaskUrges(t.app.ctx, never, now);

const leaderText = async (taskId: number) =>
  db()
    .selectFrom('diy_task_urge')
    .selectAll()
    .where('task_id', '=', taskId)
    .where('channel', '=', 'sms')
    .where('user_name', '=', '李秀英')
    .executeTakeFirstOrThrow();

/** A task to 贵州路 without a ladder, urged by hand now: the leader's text is refused while `refused` holds it. */
async function urgedTask(title: string): Promise<number> {
  const taskId = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
    title,
    forms: [{ tableId: formId }],
    dueTime: formatDateTime(new Date(Date.now() + 10 * 86_400_000)).slice(0, 16),
    receivers: { orgIds: [gzlOrgId] },
    urge: { enabled: false },
  });
  const receiver = await db()
    .selectFrom('diy_task_receiver')
    .select('id')
    .where('task_id', '=', taskId)
    .executeTakeFirstOrThrow();
  await api.ok(admin, 'POST', '/api/diyTask/urge', {
    taskId,
    receiverIds: [receiver.id],
    message: '请尽快填报',
  });
  return taskId;
}

beforeAll(async () => {
  fake = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => {
      const { phone } = JSON.parse(data || '{}') as { phone: string };
      asked.set(phone, (asked.get(phone) ?? 0) + 1);
      if (refused.has(phone)) res.writeHead(502).end('gateway down');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { SMS_PROVIDER: 'http', SMS_HTTP_URL: `${base}/sms` } });
  admin = (await login(t.app, 'admin')).accessToken;
  formId = (
    await db()
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '社区人口月报')
      .executeTakeFirstOrThrow()
  ).id;
  gzlOrgId = (
    await db().selectFrom('sys_org').select('id').where('code', '=', '310101002001').executeTakeFirstOrThrow()
  ).id;
  await setConfig(t.app, 'diy_task_urge_quiet_hours', '');
});

afterAll(async () => {
  await t?.close();
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

describe('SMS retry', () => {
  it('tries a refused text after 5 and 30 minutes, 3 attempts in all, once with two runs at a time', async () => {
    refused.add(LEADER_PHONE);
    asked.clear();
    const taskId = await urgedTask('短信重试任务');
    const first = await leaderText(taskId);
    expect(first).toMatchObject({ outcome: 'failed', attempts: 1, phone: LEADER_PHONE });
    expect(first.last_error).toContain('502');
    const failedAt = parseDateTime(first.update_time ?? '').getTime();
    const retryAt = parseDateTime(first.retry_at ?? '').getTime();
    expect(Math.abs(retryAt - failedAt - 5 * MINUTE)).toBeLessThan(MINUTE);
    // The record shows the attempt, the error and the retry time, never the whole number.
    const records = await api.ok<TaskUrgeRecord[]>(admin, 'GET', `/api/diyTask/urges?id=${taskId}`);
    expect(records.find((r) => r.userName === '李秀英')).toMatchObject({
      phone: '137****8875',
      attempts: 1,
      retryAt: first.retry_at,
      lastError: first.last_error,
    });

    // Before its time nothing is tried.
    expect((await run(new Date(retryAt - MINUTE))).smsRetried).toBe(0);
    expect(asked.get(LEADER_PHONE)).toBe(1);
    // Two runs at the same moment: one attempt.
    const [a, b] = await Promise.all([run(new Date(retryAt)), run(new Date(retryAt))]);
    expect(a.smsRetried + b.smsRetried).toBe(1);
    expect(asked.get(LEADER_PHONE)).toBe(2);
    const second = await leaderText(taskId);
    expect(second).toMatchObject({ outcome: 'failed', attempts: 2, phone: LEADER_PHONE });
    const thirdAt = parseDateTime(second.retry_at ?? '').getTime();
    expect(thirdAt - retryAt).toBe(30 * MINUTE);

    const last = await run(new Date(thirdAt));
    expect(last).toMatchObject({ smsRetried: 1, smsFailed: 1 });
    const third = await leaderText(taskId);
    expect(third).toMatchObject({ outcome: 'failed', attempts: 3, retry_at: null, phone: '137****8875' });
    expect(third.last_error).toContain('502');
    // No fourth attempt, however late.
    expect((await run(new Date(thirdAt + 24 * 60 * MINUTE))).smsRetried).toBe(0);
    expect(asked.get(LEADER_PHONE)).toBe(3);
    // The text that went at once was tried once.
    const staff = await db()
      .selectFrom('diy_task_urge')
      .selectAll()
      .where('task_id', '=', taskId)
      .where('channel', '=', 'sms')
      .where('user_name', '!=', '李秀英')
      .execute();
    expect(staff.map((r) => [r.outcome, r.attempts, r.retry_at, r.last_error])).toEqual([
      ['sent', 1, null, null],
    ]);
  });

  it('a retry that goes is recorded sent with its attempts, and the phone masked', async () => {
    refused.add(LEADER_PHONE);
    const taskId = await urgedTask('短信重试成功任务');
    const first = await leaderText(taskId);
    expect(first).toMatchObject({ outcome: 'failed', attempts: 1 });
    refused.delete(LEADER_PHONE);
    const again = await run(new Date(parseDateTime(first.retry_at ?? '').getTime()));
    expect(again).toMatchObject({ smsRetried: 1, smsSent: 1, smsFailed: 0 });
    const row = await leaderText(taskId);
    expect(row).toMatchObject({ outcome: 'sent', attempts: 2, retry_at: null, phone: '137****8875' });
    // Why the earlier attempt failed stays on the row.
    expect(row.last_error).toContain('502');
  });

  it('gives up, as taskClosed, the texts of a task closed, finished or deleted, and tries the open one', async () => {
    refused.add(LEADER_PHONE);
    const closed = await urgedTask('短信重试关闭任务');
    const finished = await urgedTask('短信重试完成任务');
    const deleted = await urgedTask('短信重试删除任务');
    const open = await urgedTask('短信重试未关闭任务');
    await api.ok(admin, 'POST', '/api/diyTask/close', { id: closed });
    // A task finishes when all its units filed; here its state is set as the filing would.
    await db().updateTable('diy_task').set({ state: 'finished' }).where('id', '=', finished).execute();
    await api.ok(admin, 'POST', '/api/diyTask/delete', { id: deleted });
    const before = await leaderText(closed);
    expect(before).toMatchObject({ outcome: 'failed', attempts: 1, phone: LEADER_PHONE });
    asked.delete(LEADER_PHONE);
    const latest = Math.max(
      ...(await Promise.all([closed, finished, deleted, open].map(leaderText))).map((r) =>
        parseDateTime(r.retry_at ?? '').getTime(),
      ),
    );
    const result = await run(new Date(latest));
    expect(result).toMatchObject({ smsRetried: 1, smsGivenUp: 3 });
    // Only the open task's text went to the gateway again.
    expect(asked.get(LEADER_PHONE)).toBe(1);
    for (const taskId of [closed, finished, deleted]) {
      const row = await leaderText(taskId);
      expect(row).toMatchObject({ outcome: 'taskClosed', attempts: 1, retry_at: null, phone: '137****8875' });
      expect(row.last_error).toContain('502');
    }
    expect(await leaderText(open)).toMatchObject({ outcome: 'failed', attempts: 2 });
    // The record shows it not sent because the task closed.
    const records = await api.ok<TaskUrgeRecord[]>(admin, 'GET', `/api/diyTask/urges?id=${closed}`);
    expect(records.find((r) => r.userName === '李秀英')).toMatchObject({
      outcome: 'taskClosed',
      retryAt: null,
    });
    // Given up once: a later run finds nothing of them.
    expect((await run(new Date(latest + 24 * 60 * MINUTE))).smsGivenUp).toBe(0);
  });
});
