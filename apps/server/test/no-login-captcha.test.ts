import type { NoLoginLink, NoLoginToken, NoLoginUse } from '@shuzhi/contracts/no-login';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { FREE_SUBMISSIONS } from '../src/modules/no-login/no-login-captcha.ts';
import {
  apiCalls,
  body,
  createTestApp,
  login,
  solvedCaptcha,
  TEST_HASH_COST,
  type TestApp,
} from './helpers.ts';

/**
 * Issue 22 §1: a captcha after repeated submissions. Per link and IP, the first FREE_SUBMISSIONS filings pass
 * without one; the next must carry a solved captcha (N1040 without, N1041 wrong) and nothing is written
 * otherwise. Counted in the shared cache (Redis when TEST_REDIS_URL is set).
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let formId: number;

const DESIGN = { fields: [{ id: 'name', type: 'text', label: '名称', required: true }] };
const ALL = { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false };

type Envelope = { code: number | string; result: unknown };
const env = (response: LightMyRequestResponse) => body(response) as Envelope;
const refusal = (response: LightMyRequestResponse) => [response.statusCode, env(response).code];

const publish = (input: Record<string, unknown> = {}) =>
  api.ok<NoLoginLink>(admin, 'POST', '/api/sysNoLoginLink/add', {
    title: '验证码登记',
    qrType: 'form',
    tableId: formId,
    mode: 'fillMany',
    days: 7,
    ...input,
  });

const codeOf = (link: NoLoginLink) => new URL(link.url, 'http://x').searchParams.get('code') ?? '';

async function tokenOf(link: NoLoginLink): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/noLogin/token',
    payload: { code: codeOf(link) },
    remoteAddress: '10.9.0.1',
  });
  expect(response.statusCode, response.body).toBe(200);
  return (env(response).result as NoLoginToken).token;
}

const add = (token: string, ip: string, payload: Record<string, unknown>, app = t.app) =>
  app.inject({
    method: 'POST',
    url: '/api/diyData/addByNoLogin',
    headers: { 'x-nologin-token': token },
    remoteAddress: ip,
    payload: { tableId: formId, ...payload },
  });

/** Files `n` records through `link` from `ip` without a captcha, each with a fresh token; all must pass. */
async function fileFreely(link: NoLoginLink, ip: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const response = await add(await tokenOf(link), ip, { values: { name: `第${i + 1}份` } });
    expect(env(response).code, response.body).toBe(200);
  }
}

async function useCount(link: NoLoginLink): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_nologin_link')
    .select('use_count')
    .where('id', '=', link.id)
    .executeTakeFirstOrThrow();
  return Number(row.use_count);
}

async function recordsNamed(name: string): Promise<number> {
  const page = await api.ok<{ total: number }>(admin, 'POST', `/api/diyData/${formId}/page`, {
    page: 1,
    pageSize: 10,
    keyword: name,
  });
  return page.total;
}

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title: '验证码表', fillers: ALL });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
});

afterAll(async () => {
  await t?.close();
});

describe('a captcha after repeated submissions', () => {
  it('asks for one from the next submission on, writes nothing without it, and takes a right one', async () => {
    const link = await publish();
    const ip = '10.9.1.1';
    await fileFreely(link, ip, FREE_SUBMISSIONS);
    expect(await useCount(link)).toBe(FREE_SUBMISSIONS);

    const token = await tokenOf(link);
    expect(refusal(await add(token, ip, { values: { name: '无验证码' } }))).toEqual([429, 'N1040']);
    expect(refusal(await add(token, ip, { values: { name: '无验证码' }, codeId: 0, code: '' }))).toEqual([
      429,
      'N1040',
    ]);
    const wrong = await solvedCaptcha(t.app);
    expect(
      refusal(await add(token, ip, { values: { name: '错验证码' }, codeId: wrong.codeId, code: 'zzzz' })),
    ).toEqual([403, 'N1041']);
    // A captcha is good for one attempt: its right answer after a wrong one is refused too.
    expect(refusal(await add(token, ip, { values: { name: '错验证码' }, ...wrong }))).toEqual([403, 'N1041']);
    expect(await useCount(link)).toBe(FREE_SUBMISSIONS);
    expect(await recordsNamed('无验证码')).toBe(0);
    expect(await recordsNamed('错验证码')).toBe(0);

    // The same token and values, now with a solved captcha, are filed.
    const right = await add(token, ip, { values: { name: '有验证码' }, ...(await solvedCaptcha(t.app)) });
    expect(env(right).code, right.body).toBe(200);
    expect(await useCount(link)).toBe(FREE_SUBMISSIONS + 1);
    expect(await recordsNamed('有验证码')).toBe(1);
    // And the next one again needs a captcha.
    expect(refusal(await add(await tokenOf(link), ip, { values: { name: '再来' } }))).toEqual([429, 'N1040']);

    const uses = await api.ok<{ items: NoLoginUse[] }>(
      admin,
      'GET',
      `/api/sysNoLoginLink/uses?linkId=${link.id}&pageSize=50`,
    );
    const codes = uses.items.filter((u) => u.action === 'refused').map((u) => u.code);
    expect(codes).toEqual(expect.arrayContaining(['N1040', 'N1041']));
  });

  it('leaves another IP on the same link and the same IP on another link alone', async () => {
    const link = await publish();
    const other = await publish();
    const ip = '10.9.2.1';
    await fileFreely(link, ip, FREE_SUBMISSIONS);
    expect(refusal(await add(await tokenOf(link), ip, { values: { name: '甲' } }))).toEqual([429, 'N1040']);
    await fileFreely(link, '10.9.2.2', FREE_SUBMISSIONS);
    await fileFreely(other, ip, FREE_SUBMISSIONS);
    expect(await useCount(link)).toBe(2 * FREE_SUBMISSIONS);
  });

  it('asks for it on a record link completed after repeated tries too', async () => {
    const link = await publish();
    const ip = '10.9.3.1';
    await fileFreely(link, ip, FREE_SUBMISSIONS);
    const filed = await add(await tokenOf(link), ip, {
      values: { name: '记录' },
      ...(await solvedCaptcha(t.app)),
    });
    const id = (env(filed).result as { id: number }).id;
    const recordLink = await publish({ qrType: 'record', recordId: id, mode: 'fillOne' });
    const token = await tokenOf(recordLink);
    const update = (payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/diyData/updateDataByNoLogin/${id}`,
        headers: { 'x-nologin-token': token },
        remoteAddress: ip,
        payload: { tableId: formId, ...payload },
      });
    // Field errors count as submissions: the fourth try through this link needs a captcha.
    for (let i = 0; i < FREE_SUBMISSIONS; i++)
      expect(env(await update({ values: { name: '' } })).code).toBe(400);
    expect(refusal(await update({ values: { name: '改好' } }))).toEqual([429, 'N1040']);
    const done = await update({ values: { name: '改好' }, ...(await solvedCaptcha(t.app)) });
    expect(env(done).code, done.body).toBe(200);
  });

  // Two processes share the count and the captchas through Redis (the in-memory cache is one process's own).
  it.runIf(process.env.TEST_REDIS_URL)('counts across processes sharing the cache', async () => {
    const other: FastifyInstance = await buildApp({
      config: t.config,
      logger: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
      regionSource: null,
    });
    try {
      const link = await publish();
      const ip = '10.9.4.1';
      for (let i = 0; i < FREE_SUBMISSIONS; i++) {
        const app = i % 2 === 0 ? t.app : other;
        expect(env(await add(await tokenOf(link), ip, { values: { name: `进程${i}` } }, app)).code).toBe(200);
      }
      const token = await tokenOf(link);
      expect(refusal(await add(token, ip, { values: { name: '另一进程' } }, other))).toEqual([429, 'N1040']);
      // A captcha drawn by one process is checked by the other.
      const solved = await solvedCaptcha(t.app);
      const passed = await add(token, ip, { values: { name: '另一进程' }, ...solved }, other);
      expect(env(passed).code, passed.body).toBe(200);
    } finally {
      await other.close();
    }
  });
});
