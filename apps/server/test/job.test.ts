import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  BUILT_IN_JOBS,
  type CheckCronResult,
  type JobClusterRow,
  type JobDetailRow,
  type JobRecordRow,
  type JobTriggerRow,
  TRIGGER_STATUS,
} from '@shuzhi/contracts/job';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID } from '../src/db/seeds/seed.ts';
import { parseCron } from '../src/platform/jobs/timing.ts';
import { apiCalls, createTestApp, login, passwordOf, type TestApp } from './helpers.ts';

let t: TestApp;
let root: string;
let admin: string;
let server: Server;
let target: string;
/** Responses of the local HTTP server that hang until the test ends. */
const hanging = new Set<import('node:http').ServerResponse>();
const { call, envelope, ok, code } = apiCalls(() => t.app);

beforeAll(async () => {
  t = await createTestApp();
  root = (await login(t.app, 'superadmin')).accessToken;
  admin = (await login(t.app, 'admin')).accessToken;
  server = createServer((req, res) => {
    if (req.url === '/ok') {
      let text = '';
      req.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`hello ${req.method} ${req.headers['x-job'] ?? ''} ${text}`.trim());
      });
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(10_000));
    } else if (req.url === '/fail') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('down for maintenance');
    } else if (req.url === '/to-ok') {
      res.writeHead(302, { location: '/ok' });
      res.end();
    } else if (req.url === '/to-ftp') {
      res.writeHead(302, { location: 'ftp://example.com/file' });
      res.end();
    } else {
      // /hang: headers never come.
      hanging.add(res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const res of hanging) res.destroy();
  server?.close();
  await t?.close();
});

const detailPage = (query = '') =>
  ok<PageResult<JobDetailRow>>(root, 'GET', `/api/sysJob/pageJobDetail?pageSize=100${query}`);
const job = async (jobId: string) => {
  const found = (await detailPage(`&jobId=${jobId}`)).items.find((j) => j.jobId === jobId);
  if (!found) throw new Error(`no job ${jobId}`);
  return found;
};
const triggers = (jobId: string) =>
  ok<JobTriggerRow[]>(root, 'GET', `/api/sysJob/jobTriggerList?jobId=${jobId}`);
const records = (query: string) =>
  ok<PageResult<JobRecordRow>>(root, 'GET', `/api/sysJob/pageJobTriggerRecord?pageSize=100&${query}`);

/** The record once its run has ended (polled; the run goes on in the background). */
async function finished(recordId: number): Promise<JobRecordRow> {
  for (;;) {
    const row = await t.app.ctx.db
      .selectFrom('sys_job_record')
      .selectAll()
      .where('id', '=', recordId)
      .executeTakeFirstOrThrow();
    if (row.status !== 'running') {
      const page = await records(`jobId=${row.job_id}`);
      const item = page.items.find((r) => r.id === recordId);
      if (!item) throw new Error('record not in the page');
      return item;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function httpJob(jobId: string, path: string, extra: Record<string, unknown> = {}) {
  return ok<number>(root, 'POST', '/api/sysJob/addJobDetail', {
    jobId,
    createType: 2,
    httpUrl: `${target}${path}`,
    httpMethod: 'GET',
    ...extra,
  });
}

const run = async (jobId: string) =>
  (await ok<{ recordId: number }>(root, 'POST', '/api/sysJob/runJob', { jobId })).recordId;

describe('job details', () => {
  it('lists the built-in jobs with their triggers', async () => {
    const page = await detailPage();
    for (const id of BUILT_IN_JOBS) {
      const row = page.items.find((j) => j.jobId === id);
      expect(row, id).toBeDefined();
      expect(row?.createType).toBe(1);
      expect(row?.handler).toBe(id);
      expect(row?.triggers).toHaveLength(1);
      expect(row?.triggers[0]?.status).toBe(TRIGGER_STATUS.running);
    }
    expect((await job('logRetention')).triggers[0]?.cron).toBe('0 0 3 * * *');
    expect((await job('noticePublish')).triggers[0]?.periodSeconds).toBe(60);
    expect((await job('onlineUserCleanup')).triggers[0]?.periodSeconds).toBe(600);
    expect((await detailPage('&jobId=Retention')).items.map((j) => j.jobId).sort()).toEqual([
      'jobRecordRetention',
      'logRetention',
    ]);
    expect((await detailPage('&groupName=nothing')).total).toBe(0);
  });

  it('refuses bad job details with field errors and catalogue codes, never a 500', async () => {
    const add = (payload: unknown) => envelope(root, 'POST', '/api/sysJob/addJobDetail', payload);
    expect((await add({})).code).toBe(400);
    expect((await add({ jobId: '1abc', createType: 1, handler: 'logRetention' })).code).toBe(400);
    expect((await add({ jobId: 'a b', createType: 1, handler: 'logRetention' })).code).toBe(400);
    expect((await add({ jobId: 'x', createType: 3 })).code).toBe(400);
    expect((await add({ jobId: 'x', createType: 2, httpUrl: 'x', httpMethod: 'TRACE' })).code).toBe(400);
    expect((await add({ jobId: 'x', createType: 2, timeoutSeconds: 0, httpUrl: `${target}/ok` })).code).toBe(
      400,
    );
    const unknown = await add({ jobId: 'x', createType: 1, handler: 'nope' });
    expect(unknown.code).toBe('J1004');
    expect(unknown.message).toContain('nope');
    expect((await add({ jobId: 'x', createType: 1 })).code).toBe('J1004');
    expect(
      (await add({ jobId: 'x', createType: 2, httpUrl: 'ftp://example.com/a', httpMethod: 'GET' })).code,
    ).toBe('J1005');
    expect(
      (await add({ jobId: 'x', createType: 2, httpUrl: 'file:///etc/passwd', httpMethod: 'GET' })).code,
    ).toBe('J1005');
    expect((await add({ jobId: 'x', createType: 2, httpMethod: 'GET' })).code).toBe('J1005');
    const noMethod = await add({ jobId: 'x', createType: 2, httpUrl: `${target}/ok` });
    expect(noMethod.code).toBe(400);
    expect(JSON.stringify(noMethod.extras ?? noMethod.message)).toContain('httpMethod');
    const badHeader = await add({
      jobId: 'x',
      createType: 2,
      httpUrl: `${target}/ok`,
      httpMethod: 'GET',
      httpHeaders: { 'bad name': 'v' },
    });
    expect(badHeader.code).toBe(400);
    expect((await add({ jobId: 'logRetention', createType: 1, handler: 'logRetention' })).code).toBe('D1006');
  });

  it('adds, changes and deletes an HTTP job; built-in jobs cannot be deleted', async () => {
    const id = await httpJob('crudJob', '/ok', {
      groupName: 'test',
      description: '测试',
      httpHeaders: { 'X-Job': 'yes' },
      remark: 'r',
    });
    const row = await job('crudJob');
    expect(row).toMatchObject({
      id,
      groupName: 'test',
      createType: 2,
      httpMethod: 'GET',
      httpHeaders: { 'X-Job': 'yes' },
      timeoutSeconds: 60,
      concurrent: false,
      running: false,
      triggers: [],
    });
    const update = (payload: Record<string, unknown>) =>
      envelope(root, 'POST', '/api/sysJob/updateJobDetail', {
        id,
        jobId: 'crudJob',
        createType: 2,
        httpUrl: `${target}/ok`,
        httpMethod: 'POST',
        ...payload,
      });
    expect((await update({ httpBody: 'payload', concurrent: true, timeoutSeconds: 5 })).code).toBe(200);
    expect(await job('crudJob')).toMatchObject({ httpMethod: 'POST', httpBody: 'payload', concurrent: true });
    expect((await update({ jobId: 'renamed' })).code).toBe(400);
    expect((await update({ createType: 1, handler: 'logRetention' })).code).toBe(400);
    expect((await update({ httpUrl: 'gopher://x' })).code).toBe('J1005');
    expect((await update({ id: 123 })).code).toBe('D1002');

    expect(await code(root, 'POST', '/api/sysJob/deleteJobDetail', { jobId: 'logRetention' })).toBe('J1001');
    expect(await code(root, 'POST', '/api/sysJob/deleteJobDetail', { jobId: 'noSuchJob' })).toBe('D1002');
    expect(await code(root, 'POST', '/api/sysJob/deleteJobDetail', {})).toBe(400);
    await ok(root, 'POST', '/api/sysJob/addJobTrigger', {
      jobId: 'crudJob',
      triggerId: 't1',
      triggerType: 'period',
      periodSeconds: 3600,
    });
    await ok(root, 'POST', '/api/sysJob/deleteJobDetail', { jobId: 'crudJob' });
    expect((await detailPage('&jobId=crudJob')).total).toBe(0);
    expect(await code(root, 'GET', '/api/sysJob/jobTriggerList?jobId=crudJob')).toBe('D1002');
    // The id is free again.
    await httpJob('crudJob', '/ok');
  });
});

describe('triggers', () => {
  beforeAll(async () => {
    await httpJob('trigJob', '/ok');
  });

  it('refuses a bad cron with the parser’s reason, an end before the start, and other mistakes', async () => {
    const add = (payload: Record<string, unknown>) =>
      envelope(root, 'POST', '/api/sysJob/addJobTrigger', { jobId: 'trigJob', triggerId: 'bad', ...payload });
    const fiveFields = await add({ triggerType: 'cron', cron: '0 3 * * *' });
    expect(fiveFields.code).toBe('J1000');
    expect(fiveFields.message).toMatch(/six fields/);
    const outOfRange = await add({ triggerType: 'cron', cron: '0 0 25 * * *' });
    expect(outOfRange.code).toBe('J1000');
    expect(outOfRange.message).toMatch(/hour/);
    expect((await add({ triggerType: 'cron', cron: 'a b c d e f' })).message).toMatch(/not allowed/);
    expect((await add({ triggerType: 'cron', cron: '0 0 0 31 2 *' })).message).toMatch(/never/);
    expect((await add({ triggerType: 'cron' })).code).toBe('J1000');
    expect((await add({ triggerType: 'period' })).code).toBe(400);
    expect((await add({ triggerType: 'period', periodSeconds: 0 })).code).toBe(400);
    expect((await add({ triggerType: 'weekly' })).code).toBe(400);
    expect(
      (
        await add({
          triggerType: 'period',
          periodSeconds: 10,
          startTime: '2030-01-02 00:00:00',
          endTime: '2030-01-01 00:00:00',
        })
      ).code,
    ).toBe('J1006');
    expect((await add({ triggerType: 'period', periodSeconds: 10, startTime: '2030-13-45' })).code).toBe(400);
    expect((await add({ jobId: 'noSuchJob', triggerType: 'period', periodSeconds: 10 })).code).toBe('D1002');
    // In Chinese when asked.
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/sysJob/addJobTrigger',
      headers: { authorization: `Bearer ${root}`, 'accept-language': 'zh-CN' },
      payload: { jobId: 'trigJob', triggerId: 'bad', triggerType: 'cron', cron: '* * *' },
    });
    expect(zh.json().message).toMatch(/^Cron 表达式无效：six fields/);
  });

  it('schedules, pauses and starts triggers, moving their next run time', async () => {
    await ok(root, 'POST', '/api/sysJob/addJobTrigger', {
      jobId: 'trigJob',
      triggerId: 'nightly',
      triggerType: 'cron',
      cron: ' 0  0 3 * * * ',
      description: 'every night',
    });
    await ok(root, 'POST', '/api/sysJob/addJobTrigger', {
      jobId: 'trigJob',
      triggerId: 'later',
      triggerType: 'period',
      periodSeconds: 30,
      startTime: '2099-01-01 08:00',
      maxNumberOfRuns: 3,
    });
    expect(
      await code(root, 'POST', '/api/sysJob/addJobTrigger', {
        jobId: 'trigJob',
        triggerId: 'later',
        triggerType: 'period',
        periodSeconds: 30,
      }),
    ).toBe('D1006');
    let list = await triggers('trigJob');
    const nightly = list.find((x) => x.triggerId === 'nightly') as JobTriggerRow;
    expect(nightly.cron).toBe('0 0 3 * * *');
    expect(nightly.status).toBe(TRIGGER_STATUS.running);
    expect(nightly.nextRunTime).toMatch(/ 03:00:00$/);
    const later = list.find((x) => x.triggerId === 'later') as JobTriggerRow;
    expect(later).toMatchObject({
      nextRunTime: '2099-01-01 08:00:00',
      maxNumberOfRuns: 3,
      runOnStart: false,
    });

    await ok(root, 'POST', '/api/sysJob/pauseTrigger', { jobId: 'trigJob', triggerId: 'nightly' });
    list = await triggers('trigJob');
    expect(list.find((x) => x.triggerId === 'nightly')).toMatchObject({
      status: TRIGGER_STATUS.paused,
      nextRunTime: null,
    });
    expect(list.find((x) => x.triggerId === 'later')?.status).toBe(TRIGGER_STATUS.running);
    await ok(root, 'POST', '/api/sysJob/startTrigger', { jobId: 'trigJob', triggerId: 'nightly' });
    expect((await triggers('trigJob')).find((x) => x.triggerId === 'nightly')?.nextRunTime).toMatch(
      / 03:00:00$/,
    );

    await ok(root, 'POST', '/api/sysJob/pauseJob', { jobId: 'trigJob' });
    for (const x of await triggers('trigJob')) expect(x).toMatchObject({ status: 2, nextRunTime: null });
    await ok(root, 'POST', '/api/sysJob/startJob', { jobId: 'trigJob' });
    for (const x of await triggers('trigJob')) expect(x.nextRunTime).not.toBeNull();

    // A paused trigger stays paused when changed; a running one gets the new time.
    await ok(root, 'POST', '/api/sysJob/pauseTrigger', { jobId: 'trigJob', triggerId: 'later' });
    await ok(root, 'POST', '/api/sysJob/updateJobTrigger', {
      id: later.id,
      jobId: 'trigJob',
      triggerId: 'later',
      triggerType: 'cron',
      cron: '0 30 4 * * *',
    });
    expect((await triggers('trigJob')).find((x) => x.triggerId === 'later')).toMatchObject({
      status: 2,
      triggerType: 'cron',
      periodSeconds: null,
      nextRunTime: null,
    });
    await ok(root, 'POST', '/api/sysJob/updateJobTrigger', {
      id: nightly.id,
      jobId: 'trigJob',
      triggerId: 'nightly',
      triggerType: 'cron',
      cron: '0 15 5 * * *',
    });
    expect((await triggers('trigJob')).find((x) => x.triggerId === 'nightly')?.nextRunTime).toMatch(
      / 05:15:00$/,
    );
    // Past its end time: ended.
    await ok(root, 'POST', '/api/sysJob/updateJobTrigger', {
      id: nightly.id,
      jobId: 'trigJob',
      triggerId: 'nightly',
      triggerType: 'period',
      periodSeconds: 60,
      startTime: '2020-01-01 00:00:00',
      endTime: '2020-01-02 00:00:00',
    });
    expect((await triggers('trigJob')).find((x) => x.triggerId === 'nightly')).toMatchObject({
      status: TRIGGER_STATUS.ended,
      nextRunTime: null,
    });
    const update = (payload: Record<string, unknown>) =>
      code(root, 'POST', '/api/sysJob/updateJobTrigger', {
        id: nightly.id,
        jobId: 'trigJob',
        triggerId: 'nightly',
        triggerType: 'cron',
        cron: '0 0 3 * * *',
        ...payload,
      });
    expect(await update({ cron: '0 0 3 * *' })).toBe('J1000');
    expect(await update({ triggerId: 'other' })).toBe(400);
    expect(await update({ id: 42 })).toBe('D1002');

    await ok(root, 'POST', '/api/sysJob/pauseAllJob');
    const paused = await detailPage();
    for (const j of paused.items)
      for (const x of j.triggers) expect(x.status, `${j.jobId}/${x.triggerId}`).toBe(2);
    await ok(root, 'POST', '/api/sysJob/startAllJob');
    const started = await detailPage();
    for (const j of started.items) {
      for (const x of j.triggers) {
        if (j.jobId === 'trigJob' && x.triggerId === 'nightly') continue;
        expect(x.status, `${j.jobId}/${x.triggerId}`).toBe(1);
        expect(x.nextRunTime, `${j.jobId}/${x.triggerId}`).not.toBeNull();
      }
    }

    await ok(root, 'POST', '/api/sysJob/deleteJobTrigger', { jobId: 'trigJob', triggerId: 'later' });
    expect((await triggers('trigJob')).map((x) => x.triggerId)).toEqual(['nightly']);
    expect(
      await code(root, 'POST', '/api/sysJob/deleteJobTrigger', { jobId: 'trigJob', triggerId: 'later' }),
    ).toBe('D1002');
    expect(
      await code(root, 'POST', '/api/sysJob/startTrigger', { jobId: 'trigJob', triggerId: 'gone' }),
    ).toBe('D1002');
    expect(await code(root, 'POST', '/api/sysJob/startJob', { jobId: 'gone' })).toBe('D1002');
    expect(await code(root, 'GET', '/api/sysJob/jobTriggerList')).toBe(400);
  });

  it('checks a cron expression: the next five runs, or why not', async () => {
    const good = await ok<CheckCronResult>(root, 'POST', '/api/sysJob/checkCron', { cron: '*/10 * * * * *' });
    expect(good.valid).toBe(true);
    expect(good.message).toBeNull();
    expect(good.nextRuns).toHaveLength(5);
    for (const at of good.nextRuns) expect(at).toMatch(/:[0-5]0$/);
    const bad = await ok<CheckCronResult>(root, 'POST', '/api/sysJob/checkCron', { cron: '0 0 3 * *' });
    expect(bad).toMatchObject({ valid: false, nextRuns: [] });
    expect(bad.message).toMatch(/six fields.*found 5/);
    expect(await code(root, 'POST', '/api/sysJob/checkCron', {})).toBe(400);
    expect(await code(root, 'POST', '/api/sysJob/checkCron', { cron: '' })).toBe(400);
    expect(parseCron('0 0 3 * * *').reason).toBeNull();
  });
});

describe('running jobs', () => {
  it('runs a built-in job now and records it', async () => {
    const recordId = await run('jobRecordRetention');
    const record = await finished(recordId);
    expect(record).toMatchObject({
      jobId: 'jobRecordRetention',
      triggerId: null,
      source: 'manual',
      status: 'succeeded',
      createUserName: 'superadmin',
      error: null,
    });
    expect(JSON.parse(record.result ?? '')).toMatchObject({ retentionDays: 30 });
    expect(record.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(record.endTime).not.toBeNull();
    expect(record.nodeId).toBe(
      (await import('../src/platform/jobs/engine.ts')).jobEngineOf(t.app.ctx).nodeId,
    );
    expect((await finished(await run('logRetention'))).status).toBe('succeeded');
    expect((await finished(await run('noticePublish'))).result).toBe('{"published":0}');
  });

  it('ends expired sessions in the online-user cleanup', async () => {
    const tokens = await login(t.app, 'fgwstaff');
    const sessionId = JSON.parse(Buffer.from(tokens.accessToken.split('.')[1] ?? '', 'base64url').toString())
      .SessionId as number;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/sysAuth/userInfo',
          headers: { authorization: `Bearer ${tokens.accessToken}` },
        })
      ).statusCode,
    ).toBe(200);
    await t.app.ctx.db
      .updateTable('sys_session')
      .set({ refresh_expire_time: '2020-01-01 00:00:00' })
      .where('id', '=', sessionId)
      .execute();
    const record = await finished(await run('onlineUserCleanup'));
    expect(record.status).toBe('succeeded');
    expect(JSON.parse(record.result ?? '{}').sessionsEnded).toBeGreaterThanOrEqual(1);
    const session = await t.app.ctx.db
      .selectFrom('sys_session')
      .select(['revoked', 'revoke_reason'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ revoked: 1, revoke_reason: 'expired' });
    // The cached principal went with it: the token stops working at once.
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/sysAuth/userInfo',
          headers: { authorization: `Bearer ${tokens.accessToken}` },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('calls HTTP jobs: success with status and body, redirects, non-2xx and bad redirects fail', async () => {
    await httpJob('httpOk', '/ok', { httpMethod: 'POST', httpBody: 'body!', httpHeaders: { 'X-Job': 'h' } });
    const okRecord = await finished(await run('httpOk'));
    expect(okRecord).toMatchObject({
      status: 'succeeded',
      result: 'HTTP 200\nhello POST h body!',
      error: null,
    });

    await httpJob('httpRedirect', '/to-ok');
    expect((await finished(await run('httpRedirect'))).result).toBe('HTTP 200\nhello GET');

    await httpJob('httpBig', '/big');
    const big = await finished(await run('httpBig'));
    expect(big.result).toBe(`HTTP 200\n${'x'.repeat(2048)}`);

    await httpJob('httpFail', '/fail');
    const failed = await finished(await run('httpFail'));
    expect(failed).toMatchObject({ status: 'failed', result: null });
    expect(failed.error).toBe('HTTP 503\ndown for maintenance');

    await httpJob('httpFtp', '/to-ftp');
    const ftp = await finished(await run('httpFtp'));
    expect(ftp.status).toBe('failed');
    expect(ftp.error).toMatch(/Only http and https/);

    await ok(root, 'POST', '/api/sysJob/addJobDetail', {
      jobId: 'httpRefused',
      createType: 2,
      httpUrl: 'http://127.0.0.1:1/nothing',
      httpMethod: 'GET',
    });
    const refused = await finished(await run('httpRefused'));
    expect(refused.status).toBe('failed');
    expect(refused.error).toMatch(/fetch failed/);
  });

  it('fails a run at its timeout', async () => {
    await httpJob('httpSlow', '/hang', { timeoutSeconds: 1 });
    const record = await finished(await run('httpSlow'));
    expect(record).toMatchObject({ status: 'failed', error: 'Timed out after 1 s' });
  });

  it('keeps non-concurrent runs apart and cancels a hanging call', async () => {
    await httpJob('httpHang', '/hang', { timeoutSeconds: 600 });
    expect(await code(root, 'POST', '/api/sysJob/cancelJob', { jobId: 'httpHang' })).toBe('J1002');
    const recordId = await run('httpHang');
    expect((await job('httpHang')).running).toBe(true);
    const busy = await envelope(root, 'POST', '/api/sysJob/runJob', { jobId: 'httpHang' });
    expect(busy.code).toBe('J1003');
    expect((await records('jobId=httpHang&status=running')).items.map((r) => r.id)).toEqual([recordId]);

    await ok(root, 'POST', '/api/sysJob/cancelJob', { jobId: 'httpHang' });
    const record = await finished(recordId);
    expect(record).toMatchObject({ status: 'cancelled', error: 'Cancelled' });
    expect((await job('httpHang')).running).toBe(false);
    expect(await code(root, 'POST', '/api/sysJob/cancelJob', { jobId: 'httpHang' })).toBe('J1002');
    // The lease went with the run: it can run again.
    const again = await run('httpHang');
    await ok(root, 'POST', '/api/sysJob/cancelJob', { jobId: 'httpHang' });
    expect((await finished(again)).status).toBe('cancelled');
  });

  it('lets concurrent jobs overlap', async () => {
    await httpJob('httpMany', '/hang', { timeoutSeconds: 600, concurrent: true });
    const first = await run('httpMany');
    const second = await run('httpMany');
    expect(first).not.toBe(second);
    await ok(root, 'POST', '/api/sysJob/cancelJob', { jobId: 'httpMany' });
    expect((await finished(first)).status).toBe('cancelled');
    expect((await finished(second)).status).toBe('cancelled');
  });

  it('cancels through the cache key a run’s process polls', async () => {
    await httpJob('httpPolled', '/hang', { timeoutSeconds: 600 });
    const recordId = await run('httpPolled');
    // What a cancel made in another process leaves for this one.
    await t.app.ctx.cache.set(`job-cancel:${recordId}`, 1, 60);
    expect((await finished(recordId)).status).toBe('cancelled');
  });

  it('refuses runs of unknown jobs and bad requests', async () => {
    expect(await code(root, 'POST', '/api/sysJob/runJob', { jobId: 'noSuchJob' })).toBe('D1002');
    expect(await code(root, 'POST', '/api/sysJob/runJob', {})).toBe(400);
    expect(await code(root, 'POST', '/api/sysJob/cancelJob', { jobId: 'noSuchJob' })).toBe('D1002');
    // A built-in job whose handler disappeared (a row written by hand).
    await t.app.ctx.db
      .insertInto('sys_job_detail')
      .values({
        id: t.app.ctx.newId(),
        job_id: 'orphanHandler',
        create_type: 1,
        handler: 'gone',
        timeout_seconds: 60,
        concurrent: 0,
        create_time: '2026-01-01 00:00:00',
        is_delete: 0,
      } as never)
      .execute();
    expect(await code(root, 'POST', '/api/sysJob/runJob', { jobId: 'orphanHandler' })).toBe('J1004');
  });

  it('pages run records with filters, newest first', async () => {
    const all = await records('');
    expect(all.total).toBeGreaterThan(5);
    const starts = all.items.map((r) => r.startTime);
    expect([...starts].sort().reverse()).toEqual(starts);
    const failed = await records('status=failed');
    expect(failed.items.length).toBeGreaterThan(0);
    for (const r of failed.items) expect(r.status).toBe('failed');
    expect((await records('jobId=httpOk')).items.every((r) => r.jobId === 'httpOk')).toBe(true);
    expect((await records('startTime[]=2000-01-01&startTime[]=2000-01-02')).total).toBe(0);
    expect((await records('startTime[]=2000-01-01&startTime[]=2999-12-31')).total).toBe(all.total);
    expect(await code(root, 'GET', '/api/sysJob/pageJobTriggerRecord?status=weird')).toBe(400);
    expect(await code(root, 'GET', '/api/sysJob/pageJobTriggerRecord?pageSize=0')).toBe(400);
  });

  it('lists no cluster member while the scheduler is off in this app', async () => {
    expect(await ok<JobClusterRow[]>(root, 'GET', '/api/sysJob/clusterList')).toEqual([]);
  });
});

describe('access', () => {
  const ROUTES: [string, string][] = [
    ['GET', '/api/sysJob/pageJobDetail'],
    ['POST', '/api/sysJob/addJobDetail'],
    ['POST', '/api/sysJob/updateJobDetail'],
    ['POST', '/api/sysJob/deleteJobDetail'],
    ['GET', '/api/sysJob/jobTriggerList?jobId=logRetention'],
    ['POST', '/api/sysJob/addJobTrigger'],
    ['POST', '/api/sysJob/updateJobTrigger'],
    ['POST', '/api/sysJob/deleteJobTrigger'],
    ['POST', '/api/sysJob/startJob'],
    ['POST', '/api/sysJob/pauseJob'],
    ['POST', '/api/sysJob/startTrigger'],
    ['POST', '/api/sysJob/pauseTrigger'],
    ['POST', '/api/sysJob/startAllJob'],
    ['POST', '/api/sysJob/pauseAllJob'],
    ['POST', '/api/sysJob/runJob'],
    ['POST', '/api/sysJob/cancelJob'],
    ['GET', '/api/sysJob/pageJobTriggerRecord'],
    ['GET', '/api/sysJob/clusterList'],
    ['POST', '/api/sysJob/checkCron'],
  ];

  it('refuses the tenant admin on every route, and anonymous callers', async () => {
    for (const [method, url] of ROUTES) {
      const payload = method === 'POST' ? { jobId: 'logRetention' } : undefined;
      expect((await call(admin, method as 'GET', url, payload)).statusCode, url).toBe(403);
      expect((await t.app.inject({ method: method as 'GET', url })).statusCode, url).toBe(401);
    }
  });

  it('refuses a tenant admin even when their tenant is handed the permissions (super admin only)', async () => {
    const db = t.app.ctx.db;
    const buttons = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', 'like', 'sysJob:%')
      .execute();
    expect(buttons.length).toBeGreaterThanOrEqual(10);
    await db
      .insertInto('sys_tenant_menu')
      .values(buttons.map((b) => ({ id: t.app.ctx.newId(), tenant_id: DEFAULT_TENANT_ID, menu_id: b.id })))
      .execute();
    try {
      const token = (await login(t.app, 'admin')).accessToken;
      expect(await ok<string[]>(token, 'GET', '/api/sysMenu/ownBtnPermList')).toContain('sysJob:runNow');
      for (const [method, url] of ROUTES) {
        const payload = method === 'POST' ? { jobId: 'logRetention' } : undefined;
        const response = await call(token, method as 'GET', url, payload);
        const status = response.statusCode === 403 ? 403 : response.json().code;
        // Validation may answer first on an incomplete body; never a success or a server error.
        expect([403, 400], url).toContain(status);
      }
      expect((await call(token, 'GET', '/api/sysJob/pageJobDetail')).statusCode).toBe(403);
      expect((await call(token, 'POST', '/api/sysJob/runJob', { jobId: 'logRetention' })).statusCode).toBe(
        403,
      );
    } finally {
      await db
        .deleteFrom('sys_tenant_menu')
        .where(
          'menu_id',
          'in',
          buttons.map((b) => b.id),
        )
        .execute();
    }
  });
});

describe('the dashboard page', () => {
  it('serves a static page without data, framed by the same origin only, running only its own script', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/schedule' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    const html = response.body;
    expect(html).toContain('/api/sysJob/pageJobDetail');
    expect(html).not.toContain('logRetention');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet|https?:\/\//);
    // The hash in the policy is the inline script's.
    const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
    const digest = (await import('node:crypto')).createHash('sha256').update(script).digest('base64');
    expect(csp).toContain(`'sha256-${digest}'`);
  });

  it('may also be framed by the portal that embeds the web app (FRAME_ANCESTORS)', async () => {
    const portal = await createTestApp({ env: { FRAME_ANCESTORS: "'self' https://portal.example.gov.cn" } });
    try {
      const response = await portal.app.inject({ method: 'GET', url: '/schedule' });
      expect(String(response.headers['content-security-policy'])).toContain(
        "frame-ancestors 'self' https://portal.example.gov.cn",
      );
      expect(response.headers['x-frame-options']).toBeUndefined();
    } finally {
      await portal.close();
    }
  });
});

describe('the scheduler in a process', () => {
  let s: TestApp;
  beforeAll(async () => {
    s = await createTestApp({ jobs: true, env: { JOB_LEASE_TTL_MS: '3000', JOB_LEASE_RENEW_MS: '1000' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('fires a trigger until its maximum number of runs, then ends it; shows itself as the leader', async () => {
    const api = apiCalls(() => s.app);
    const token = (await login(s.app, 'superadmin')).accessToken;
    await api.ok(token, 'POST', '/api/sysJob/addJobDetail', {
      jobId: 'twice',
      createType: 1,
      handler: 'jobRecordRetention',
    });
    await api.ok(token, 'POST', '/api/sysJob/addJobTrigger', {
      jobId: 'twice',
      triggerId: 'fast',
      triggerType: 'period',
      periodSeconds: 1,
      maxNumberOfRuns: 2,
      runOnStart: true,
    });
    let trigger: JobTriggerRow | undefined;
    for (;;) {
      trigger = (await api.ok<JobTriggerRow[]>(token, 'GET', '/api/sysJob/jobTriggerList?jobId=twice'))[0];
      if (trigger?.status === TRIGGER_STATUS.ended) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(trigger).toMatchObject({ numberOfRuns: 2, nextRunTime: null, numberOfErrors: 0 });
    const runs = await api.ok<PageResult<JobRecordRow>>(
      token,
      'GET',
      '/api/sysJob/pageJobTriggerRecord?jobId=twice',
    );
    expect(runs.items.map((r) => [r.source, r.triggerId])).toEqual([
      ['schedule', 'fast'],
      ['schedule', 'fast'],
    ]);
    // Started again after it ended: still at its maximum, so it stays ended.
    await api.ok(token, 'POST', '/api/sysJob/startTrigger', { jobId: 'twice', triggerId: 'fast' });
    expect(
      (await api.ok<JobTriggerRow[]>(token, 'GET', '/api/sysJob/jobTriggerList?jobId=twice'))[0]?.status,
    ).toBe(TRIGGER_STATUS.ended);

    const cluster = await api.ok<JobClusterRow[]>(token, 'GET', '/api/sysJob/clusterList');
    expect(cluster).toHaveLength(1);
    expect(cluster[0]).toMatchObject({ status: 1, isLeader: true, isSelf: true, pid: process.pid });
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('cancel across processes (shared Redis)', () => {
  it('cancels a run of another process on the same database and cache', async () => {
    // A second app on the same database and cache namespace, as a second server process would be.
    const { buildApp } = await import('../src/app.ts');
    const other = await buildApp({
      config: t.config,
      logger: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: { memoryCost: 1024, timeCost: 1 },
      regionSource: null,
      seed: false,
    });
    try {
      await httpJob('httpElsewhere', '/hang', { timeoutSeconds: 600 });
      const recordId = await run('httpElsewhere');
      // The same account of the same database: it signs in with the password it has there now.
      const token = (await login(other, 'superadmin', passwordOf(t.app, 'superadmin'))).accessToken;
      const otherCalls = apiCalls(() => other);
      // The lease row keeps the job from running twice across processes.
      expect(await otherCalls.code(token, 'POST', '/api/sysJob/runJob', { jobId: 'httpElsewhere' })).toBe(
        'J1003',
      );
      await otherCalls.ok(token, 'POST', '/api/sysJob/cancelJob', { jobId: 'httpElsewhere' });
      expect((await finished(recordId)).status).toBe('cancelled');
    } finally {
      await other.close();
    }
  });
});
