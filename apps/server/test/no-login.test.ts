import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { NoLoginLink, NoLoginToken, NoLoginUse } from '@shuzhi/contracts/no-login';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLinkCode, signLinkCode, signToken } from '../src/modules/no-login/no-login-code.ts';
import { apiCalls, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 22 §1: login-free links. Staff publish a signed, expiring, scoped link; the page exchanges its code for
 * a short-lived scoped token; the ByNoLogin routes answer only within that scope. Every refusal has its own
 * code (expired, revoked, used up, wrong scope, wrong tenant, tampered, replay) and HTTP status.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let formId: number;
let otherFormId: number;

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'qty', type: 'integer', label: '数量' },
    { id: 'who', type: 'user', label: '负责人' },
  ],
};
const ALL = { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false };

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };
const env = (response: LightMyRequestResponse) => body(response) as Envelope;

async function publish(input: Record<string, unknown>): Promise<NoLoginLink> {
  return api.ok<NoLoginLink>(admin, 'POST', '/api/sysNoLoginLink/add', {
    title: '扫码登记',
    qrType: 'form',
    tableId: formId,
    mode: 'fillMany',
    days: 7,
    ...input,
  });
}

const codeOf = (link: NoLoginLink) => new URL(link.url, 'http://x').searchParams.get('code') ?? '';

const exchange = (code: string, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/noLogin/token', payload: { code }, remoteAddress });

async function tokenOf(link: NoLoginLink): Promise<NoLoginToken> {
  const response = await exchange(codeOf(link));
  expect(response.statusCode, response.body).toBe(200);
  return env(response).result as NoLoginToken;
}

const withToken = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    headers: { 'x-nologin-token': token, 'user-agent': 'phone-test' },
    remoteAddress: '10.0.0.2',
    ...(payload ? { payload } : {}),
  });

const add = (token: string, values: Record<string, unknown>, table = formId) =>
  withToken(token, 'POST', '/api/diyData/addByNoLogin', { tableId: table, values });

/** HTTP status and envelope code of a response. */
const refusal = (response: LightMyRequestResponse) => [response.statusCode, env(response).code];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  await db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  for (const title of ['扫码表', '另一张表']) {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title, fillers: ALL });
    await api.ok(admin, 'PUT', '/api/diyTable/design', { id, design: DESIGN, publish: true });
    if (title === '扫码表') formId = id;
    else otherFormId = id;
  }
});

afterAll(async () => {
  await t?.close();
});

describe('publishing', () => {
  it('gives a /scancode link whose code is signed and carries no secret', async () => {
    const link = await publish({ maxUses: 5 });
    const url = new URL(link.url, 'http://x');
    expect(url.pathname).toBe('/scancode');
    expect(url.searchParams.get('QrCodeType')).toBe('form');
    expect(readLinkCode(t.app.ctx, codeOf(link))).toMatchObject({ linkId: link.id });
    expect(link).toMatchObject({ state: 'active', useCount: 0, maxUses: 5, mode: 'fillMany' });
    const page = await api.ok<{ items: NoLoginLink[] }>(admin, 'GET', '/api/sysNoLoginLink/page?title=扫码');
    expect(page.items.find((l) => l.id === link.id)?.url).toBe(link.url);
  });

  it('refuses staff without the permission, and a record link without its record', async () => {
    expect(await api.code(gzl, 'GET', '/api/sysNoLoginLink/page')).toBe(403);
    const env400 = await api.envelope(admin, 'POST', '/api/sysNoLoginLink/add', {
      title: 'x',
      qrType: 'record',
      tableId: formId,
      mode: 'view',
      days: 1,
    });
    expect(env400.code).toBe(400);
    expect(Object.keys(env400.errors ?? {})).toContain('recordId');
  });

  it('draws the QR code as PNG and SVG and a printable sheet', async () => {
    const link = await publish({});
    const png = await api.call(admin, 'GET', `/api/sysNoLoginLink/qrcode?id=${link.id}&format=png`);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const svg = await api.call(admin, 'GET', `/api/sysNoLoginLink/qrcode?id=${link.id}`);
    expect(svg.body).toContain('<svg');
    const sheet = await api.ok<{ id: number; url: string; svg: string }[]>(
      admin,
      'GET',
      `/api/sysNoLoginLink/sheet?ids=${link.id},999999`,
    );
    expect(sheet).toHaveLength(1);
    expect(sheet[0]?.url).toMatch(/^http:\/\/localhost(:\d+)?\/scancode\?QrCodeType=form&code=/);
  });
});

describe('filling through a link', () => {
  it('files a record that staff see, logs the use, and refuses a replay of the token (N1007)', async () => {
    const link = await publish({});
    const { token, scope, expiresIn } = await tokenOf(link);
    expect(scope).toMatchObject({ tableId: formId, mode: 'fillMany', qrType: 'form', tableTitle: '扫码表' });
    expect(expiresIn).toBeGreaterThan(60);
    const design = env(await withToken(token, 'GET', `/api/diyData/designByNoLogin?tableId=${formId}`));
    const fieldIds = (design.result as { design: { fields: { id: string }[] } }).design.fields.map(
      (f) => f.id,
    );
    expect(fieldIds).toEqual(['name', 'qty']);
    const added = await add(token, { name: '路边摊', qty: 2, who: 1 });
    expect(added.statusCode, added.body).toBe(200);
    const { id } = env(added).result as { id: number };
    const record = await api.ok<DiyRecord>(admin, 'GET', `/api/diyData/${formId}/${id}`);
    expect(record.values).toMatchObject({ name: '路边摊', qty: 2 });
    expect(record.values.who ?? null).toBeNull();
    expect(refusal(await add(token, { name: '再来一次' }))).toEqual([409, 'N1007']);
    const uses = await api.ok<{ items: NoLoginUse[] }>(
      admin,
      'GET',
      `/api/sysNoLoginLink/uses?linkId=${link.id}`,
    );
    const actions = uses.items.map((u) => u.action);
    expect(actions).toEqual(expect.arrayContaining(['open', 'add', 'refused']));
    const addUse = uses.items.find((u) => u.action === 'add');
    expect(addUse).toMatchObject({ recordId: id, ip: '10.0.0.2', userAgent: 'phone-test' });
    expect(uses.items.find((u) => u.action === 'refused')?.code).toBe('N1007');
  });

  it('gives field errors and keeps the token usable after a refused save', async () => {
    const link = await publish({ maxUses: 1 });
    const { token } = await tokenOf(link);
    const bad = env(await add(token, { qty: 1 }));
    expect(bad.code).toBe(400);
    expect(Object.keys(bad.errors ?? {})).toContain('name');
    expect(env(await add(token, { name: '好的' })).code).toBe(200);
  });

  it('refuses a link used up (N1003): at the exchange and for a token already given', async () => {
    const link = await publish({ maxUses: 1 });
    const first = await tokenOf(link);
    const second = await tokenOf(link);
    expect(env(await add(first.token, { name: '一' })).code).toBe(200);
    expect(refusal(await add(second.token, { name: '二' }))).toEqual([401, 'N1003']);
    expect(refusal(await exchange(codeOf(link)))).toEqual([401, 'N1003']);
    const staffView = await api.ok<{ items: NoLoginLink[] }>(admin, 'GET', '/api/sysNoLoginLink/page');
    expect(staffView.items.find((l) => l.id === link.id)).toMatchObject({ state: 'usedUp', useCount: 1 });
  });

  it('files exactly max uses when many submit at once', async () => {
    const link = await publish({ maxUses: 3 });
    const tokens = await Promise.all(Array.from({ length: 8 }, () => tokenOf(link)));
    const answers = await Promise.all(tokens.map((tk, i) => add(tk.token, { name: `并发${i}` })));
    const codes = answers.map((a) => env(a).code);
    expect(codes.filter((c) => c === 200)).toHaveLength(3);
    expect(codes.filter((c) => c === 'N1003')).toHaveLength(5);
  });

  it('a fillOne link files one record only', async () => {
    const link = await publish({ mode: 'fillOne', maxUses: 9 });
    expect(link.maxUses).toBe(1);
    const { token } = await tokenOf(link);
    expect(env(await add(token, { name: '唯一' })).code).toBe(200);
    expect(refusal(await exchange(codeOf(link)))).toEqual([401, 'N1003']);
  });
});

describe('refusals, each with its own code', () => {
  it('tampered code N1000, a token used as a code N1000, no or forged token N1006', async () => {
    const link = await publish({});
    const code = codeOf(link);
    const flipped = `${code.slice(0, 10)}${code[10] === 'A' ? 'B' : 'A'}${code.slice(11)}`;
    expect(refusal(await exchange(flipped))).toEqual([401, 'N1000']);
    expect(refusal(await exchange('not-a-code'))).toEqual([401, 'N1000']);
    const { token } = await tokenOf(link);
    expect(refusal(await exchange(token))).toEqual([401, 'N1000']);
    expect(refusal(await add(code, { name: 'x' }))).toEqual([401, 'N1006']);
    expect(
      refusal(
        await t.app.inject({
          method: 'POST',
          url: '/api/diyData/addByNoLogin',
          payload: { tableId: formId, values: {} },
        }),
      ),
    ).toEqual([401, 'N1006']);
    const flippedToken = `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`;
    expect(refusal(await add(flippedToken, { name: 'x' }))).toEqual([401, 'N1006']);
  });

  it('an expired token N1006, an expired link N1001', async () => {
    const link = await publish({});
    const tenantId = readLinkCode(t.app.ctx, codeOf(link))?.tenantId ?? 0;
    const past = Math.floor(Date.now() / 1000) - 10;
    const stale = signToken(t.app.ctx, { tenantId, linkId: link.id, expires: past }).token;
    expect(refusal(await add(stale, { name: 'x' }))).toEqual([401, 'N1006']);
    const { token } = await tokenOf(link);
    await t.app.ctx.db
      .updateTable('sys_nologin_link')
      .set({ expire_time: '2020-01-01 00:00:00' })
      .where('id', '=', link.id)
      .execute();
    expect(refusal(await add(token, { name: 'x' }))).toEqual([401, 'N1001']);
    const expiredCode = signLinkCode(t.app.ctx, { tenantId, linkId: link.id, expires: past });
    expect(refusal(await exchange(expiredCode))).toEqual([401, 'N1001']);
  });

  it('revoked N1002, for the code and for tokens already given', async () => {
    const link = await publish({});
    const { token } = await tokenOf(link);
    await api.ok(admin, 'POST', '/api/sysNoLoginLink/revoke', { id: link.id });
    expect(refusal(await exchange(codeOf(link)))).toEqual([401, 'N1002']);
    expect(refusal(await add(token, { name: 'x' }))).toEqual([401, 'N1002']);
  });

  it('wrong tenant N1005: a validly signed code naming another tenant', async () => {
    const link = await publish({});
    const claims = readLinkCode(t.app.ctx, codeOf(link));
    const foreign = signLinkCode(t.app.ctx, {
      tenantId: 999,
      linkId: link.id,
      expires: claims?.expires ?? 0,
    });
    expect(refusal(await exchange(foreign))).toEqual([403, 'N1005']);
    const foreignToken = signToken(t.app.ctx, {
      tenantId: 999,
      linkId: link.id,
      expires: Math.floor(Date.now() / 1000) + 60,
    }).token;
    expect(refusal(await add(foreignToken, { name: 'x' }))).toEqual([403, 'N1005']);
  });

  it('wrong scope N1004: another form, reading with a fill link, filling with a view link', async () => {
    const fill = await tokenOf(await publish({}));
    expect(refusal(await add(fill.token, { name: 'x' }, otherFormId))).toEqual([403, 'N1004']);
    expect(
      refusal(await withToken(fill.token, 'GET', `/api/diyData/listByNoLogin?tableId=${formId}`)),
    ).toEqual([403, 'N1004']);
    const view = await tokenOf(await publish({ mode: 'view' }));
    expect(refusal(await add(view.token, { name: 'x' }))).toEqual([403, 'N1004']);
    const list = await withToken(view.token, 'GET', `/api/diyData/listByNoLogin?tableId=${formId}`);
    expect(list.statusCode).toBe(200);
    expect((env(list).result as unknown[]).length).toBeGreaterThan(0);
    const draft = await api.ok<number>(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: '草稿不公开' },
      submit: false,
    });
    expect(JSON.stringify(env(list).result)).not.toContain('草稿不公开');
    const listed = env(await withToken(view.token, 'GET', `/api/diyData/listByNoLogin?tableId=${formId}`));
    expect(JSON.stringify(listed.result)).not.toContain('草稿不公开');
    expect(
      refusal(await withToken(view.token, 'GET', `/api/diyData/detailByNoLogin/${formId}/${draft}`)),
    ).toEqual([403, 'N1004']);
    const page = await withToken(view.token, 'POST', '/api/diyData/pageByNoLogin', {
      tableId: formId,
      pageSize: 2,
    });
    expect((env(page).result as { items: unknown[]; total: number }).items).toHaveLength(2);
  });

  it('a record link shows its record only and fills it once', async () => {
    const id = await api.ok<number>(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: '原值', qty: 1 },
      submit: false,
    });
    const other = await api.ok<number>(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: '别的', qty: 1 },
      submit: false,
    });
    const link = await publish({ qrType: 'record', recordId: id, mode: 'fillOne' });
    expect(new URL(link.url, 'http://x').searchParams.get('QrCodeType')).toBe('record');
    const { token } = await tokenOf(link);
    const shown = await withToken(token, 'GET', `/api/diyData/detailByNoLogin/${formId}/${id}`);
    expect((env(shown).result as { values: Record<string, unknown> }).values.name).toBe('原值');
    expect(refusal(await withToken(token, 'GET', `/api/diyData/detailByNoLogin/${formId}/${other}`))).toEqual(
      [403, 'N1004'],
    );
    const wrong = await withToken(token, 'PUT', `/api/diyData/updateDataByNoLogin/${other}`, {
      tableId: formId,
      values: { name: '改' },
    });
    expect(refusal(wrong)).toEqual([403, 'N1004']);
    const put = () =>
      withToken(token, 'PUT', `/api/diyData/updateDataByNoLogin/${id}`, {
        tableId: formId,
        values: { name: '补填' },
      });
    expect(env(await put()).code).toBe(200);
    expect(refusal(await put())).toEqual([409, 'N1007']);
    const record = await api.ok<DiyRecord>(admin, 'GET', `/api/diyData/${formId}/${id}`);
    expect(record.values).toMatchObject({ name: '补填', qty: 1 });
  });

  it('a deleted link N1008; a body over the limit 413', async () => {
    const link = await publish({});
    await t.app.ctx.db
      .updateTable('sys_nologin_link')
      .set({ is_delete: 1 })
      .where('id', '=', link.id)
      .execute();
    expect(refusal(await exchange(codeOf(link)))).toEqual([401, 'N1008']);
    const { token } = await tokenOf(await publish({}));
    const huge = await add(token, { name: 'x'.repeat(300 * 1024) });
    expect(huge.statusCode).toBe(413);
  });

  it('rate-limits a link (N1009, 429)', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_NOLOGIN_LINK: '3' } });
    try {
      const a = (await login(limited.app, 'admin')).accessToken;
      const f = await apiCalls(() => limited.app).ok<number>(a, 'POST', '/api/diyTable/add', {
        title: 'r',
        fillers: ALL,
      });
      await apiCalls(() => limited.app).ok(a, 'PUT', '/api/diyTable/design', {
        id: f,
        design: DESIGN,
        publish: true,
      });
      const link = await apiCalls(() => limited.app).ok<NoLoginLink>(a, 'POST', '/api/sysNoLoginLink/add', {
        title: 'r',
        qrType: 'form',
        tableId: f,
        mode: 'fillMany',
        days: 1,
      });
      const code = codeOf(link);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) {
        const r = await limited.app.inject({ method: 'POST', url: '/api/noLogin/token', payload: { code } });
        statuses.push(r.statusCode);
        if (i === 3) expect(env(r).code).toBe('N1009');
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
