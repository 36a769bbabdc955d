import type { NoLoginLink } from '@shuzhi/contracts/no-login';
import type { PublicScene, PublicStatement, Scene, Statement } from '@shuzhi/contracts/no-login-pages';
import type { UploadedFile } from '@shuzhi/contracts/user-center';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPageCode, signPageCode } from '../src/modules/no-login/no-login-code.ts';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { multipart, PNG_1X1 } from './upload.fixture.ts';

/**
 * Issue 22 §2: public statements (`/statement?loadCodedate=…`) and custom scenes (`/customScene?id=…`).
 * Staff choose the records and the public fields; a stranger sees only those, until the statement is withdrawn
 * or expires. Codes are signed like the links' (tampered, another tenant, deleted, withdrawn, expired), entries
 * of scenes must be the publisher's tenant's and live, and the per-code rate holds.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let formId: number;
const ids: Record<string, number> = {};

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'qty', type: 'integer', label: '数量' },
    { id: 'phone', type: 'text', label: '联系电话' },
  ],
};
const ALL = { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false };

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };
const env = (response: LightMyRequestResponse) => body(response) as Envelope;
const refusal = (response: LightMyRequestResponse) => [response.statusCode, env(response).code];

const codeIn = (url: string, name: string) => new URL(url, 'http://x').searchParams.get(name) ?? '';
const openStatement = (code: string, remoteAddress = '10.1.0.1') =>
  t.app.inject({ method: 'GET', url: `/api/noLogin/statement?loadCodedate=${code}`, remoteAddress });
const openScene = (code: string) =>
  t.app.inject({ method: 'GET', url: `/api/noLogin/scene?id=${code}`, remoteAddress: '10.1.0.2' });

async function record(values: Record<string, unknown>, submit = true): Promise<number> {
  return api.ok<number>(admin, 'POST', `/api/diyData/${formId}/add`, { values, submit });
}

const publishStatement = (input: Record<string, unknown>) =>
  api.ok<Statement>(admin, 'POST', '/api/sysStatement/add', {
    title: '公示',
    kind: 'dataset',
    tableId: formId,
    fields: ['name', 'qty'],
    days: 7,
    ...input,
  });

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title: '公示表', fillers: ALL });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
  ids.big = await record({ name: '甲商户', qty: 5, phone: '13800000001' });
  ids.small = await record({ name: '乙商户', qty: 1, phone: '13800000002' });
  ids.draft = await record({ name: '草稿商户', qty: 9, phone: '13800000003' }, false);
});

afterAll(async () => {
  await t?.close();
});

describe('public statements', () => {
  it('shows only the chosen fields of the filed records matching the filter, and counts views', async () => {
    const statement = await publishStatement({
      fields: ['qty', 'name'],
      filter: { filters: [{ field: 'qty', op: 'gte', value: 2 }] },
      intro: '以下为检查结果',
    });
    expect(statement).toMatchObject({ state: 'active', fields: ['name', 'qty'], viewCount: 0 });
    const code = codeIn(statement.url, 'loadCodedate');
    expect(new URL(statement.url, 'http://x').pathname).toBe('/statement');
    expect(readPageCode(t.app.ctx, 'statement', code)).toMatchObject({ linkId: statement.id });
    const response = await openStatement(code);
    expect(response.statusCode, response.body).toBe(200);
    const shown = env(response).result as PublicStatement;
    expect(shown.fields.map((f) => f.id)).toEqual(['name', 'qty']);
    expect(shown.records.map((r) => r.values)).toEqual([{ name: '甲商户', qty: 5 }]);
    expect(response.body).not.toContain('13800000001');
    expect(response.body).not.toContain('草稿商户');
    expect(shown).toMatchObject({ intro: '以下为检查结果', tableTitle: '公示表', truncated: false });
    const page = await api.ok<{ items: Statement[] }>(admin, 'GET', '/api/sysStatement/page?title=公示');
    expect(page.items.find((s) => s.id === statement.id)?.viewCount).toBe(1);
  });

  it('publishes one filed record; refuses a draft (N1031), unknown fields (N1026), a missing record id', async () => {
    const one = await publishStatement({ kind: 'record', recordId: ids.small, fields: ['name'] });
    const shown = env(await openStatement(codeIn(one.url, 'loadCodedate'))).result as PublicStatement;
    expect(shown.records.map((r) => r.values)).toEqual([{ name: '乙商户' }]);
    const draft = await api.envelope(admin, 'POST', '/api/sysStatement/add', {
      title: 'x',
      kind: 'record',
      recordId: ids.draft,
      tableId: formId,
      fields: ['name'],
      days: 1,
    });
    expect(draft.code).toBe('N1031');
    const unknown = await api.envelope(admin, 'POST', '/api/sysStatement/add', {
      title: 'x',
      kind: 'dataset',
      tableId: formId,
      fields: ['name', 'secret'],
      days: 1,
    });
    expect(unknown.code).toBe('N1026');
    const missing = await api.envelope(admin, 'POST', '/api/sysStatement/add', {
      title: 'x',
      kind: 'record',
      tableId: formId,
      fields: ['name'],
      days: 1,
    });
    expect(missing.code).toBe(400);
    expect(Object.keys(missing.errors ?? {})).toContain('recordId');
  });

  it('edits the fields of a live statement; refuses staff without the permission (403)', async () => {
    const statement = await publishStatement({});
    const edited = await api.ok<Statement>(admin, 'POST', '/api/sysStatement/edit', {
      id: statement.id,
      title: '改过的公示',
      fields: ['phone'],
    });
    expect(edited.url).toBe(statement.url);
    const shown = env(await openStatement(codeIn(statement.url, 'loadCodedate'))).result as PublicStatement;
    expect(shown.title).toBe('改过的公示');
    expect(shown.fields.map((f) => f.id)).toEqual(['phone']);
    expect(await api.code(gzl, 'GET', '/api/sysStatement/page')).toBe(403);
    expect(await api.code(gzl, 'POST', '/api/sysStatement/withdraw', { id: statement.id })).toBe(403);
  });

  it('refuses withdrawn (N1020), expired (N1021), tampered (N1000), foreign (N1005) and deleted (N1008)', async () => {
    const statement = await publishStatement({});
    const code = codeIn(statement.url, 'loadCodedate');
    const tenantId = readPageCode(t.app.ctx, 'statement', code)?.tenantId ?? 0;
    const future = Math.floor(Date.now() / 1000) + 3600;
    const foreign = signPageCode(t.app.ctx, 'statement', {
      tenantId: 999,
      linkId: statement.id,
      expires: future,
    });
    expect(refusal(await openStatement(foreign))).toEqual([403, 'N1005']);
    const tampered = `${code.slice(0, 10)}${code[10] === 'A' ? 'B' : 'A'}${code.slice(11)}`;
    expect(refusal(await openStatement(tampered))).toEqual([401, 'N1000']);
    // A scene's code never opens a statement.
    const asScene = signPageCode(t.app.ctx, 'scene', { tenantId, linkId: statement.id, expires: future });
    expect(refusal(await openStatement(asScene))).toEqual([401, 'N1000']);
    const past = Math.floor(Date.now() / 1000) - 10;
    const expired = signPageCode(t.app.ctx, 'statement', { tenantId, linkId: statement.id, expires: past });
    expect(refusal(await openStatement(expired))).toEqual([401, 'N1021']);
    await api.ok(admin, 'POST', '/api/sysStatement/withdraw', { id: statement.id });
    expect(refusal(await openStatement(code))).toEqual([401, 'N1020']);
    expect(
      (
        await api.envelope(admin, 'POST', '/api/sysStatement/edit', {
          id: statement.id,
          title: 'x',
          fields: ['name'],
        })
      ).code,
    ).toBe('N1032');
    await api.ok(admin, 'POST', '/api/sysStatement/delete', { id: statement.id });
    expect(refusal(await openStatement(code))).toEqual([401, 'N1008']);
    const other = await publishStatement({});
    await t.app.ctx.db
      .updateTable('sys_statement')
      .set({ expire_time: '2020-01-01 00:00:00' })
      .where('id', '=', other.id)
      .execute();
    expect(refusal(await openStatement(codeIn(other.url, 'loadCodedate')))).toEqual([401, 'N1021']);
  });
});

describe('custom scenes', () => {
  let link: NoLoginLink;
  let statement: Statement;

  beforeAll(async () => {
    link = await api.ok<NoLoginLink>(admin, 'POST', '/api/sysNoLoginLink/add', {
      title: '活动报名',
      qrType: 'form',
      tableId: formId,
      mode: 'fillMany',
      days: 7,
    });
    statement = await publishStatement({ title: '报名公示' });
  });

  const sceneInput = (entries: unknown[], extra: Record<string, unknown> = {}) => ({
    title: '垃圾分类宣传周',
    intro: '欢迎参加',
    days: 7,
    entries,
    ...extra,
  });
  const threeEntries = () => [
    { type: 'form', title: '我要报名', linkId: link.id },
    { type: 'statement', title: '报名名单', statementId: statement.id },
    { type: 'link', title: '活动介绍', url: 'https://example.org/intro', note: '外部网站' },
  ];

  it('shows a scene with three entries and their live addresses; an ended link loses its address', async () => {
    const scene = await api.ok<Scene>(admin, 'POST', '/api/sysScene/add', sceneInput(threeEntries()));
    expect(new URL(scene.url, 'http://x').pathname).toBe('/customScene');
    const code = codeIn(scene.url, 'id');
    const response = await openScene(code);
    expect(response.statusCode, response.body).toBe(200);
    const shown = env(response).result as PublicScene;
    expect(shown).toMatchObject({ title: '垃圾分类宣传周', intro: '欢迎参加', bannerUrl: null });
    expect(shown.entries.map((e) => [e.type, e.url])).toEqual([
      ['form', link.url],
      ['statement', statement.url],
      ['link', 'https://example.org/intro'],
    ]);
    const revoked = await api.ok<NoLoginLink>(admin, 'POST', '/api/sysNoLoginLink/add', {
      title: '临时',
      qrType: 'form',
      tableId: formId,
      mode: 'fillOne',
      days: 1,
    });
    const second = await api.ok<Scene>(
      admin,
      'POST',
      '/api/sysScene/add',
      sceneInput([{ type: 'form', title: '临时报名', linkId: revoked.id }]),
    );
    await api.ok(admin, 'POST', '/api/sysNoLoginLink/revoke', { id: revoked.id });
    const after = env(await openScene(codeIn(second.url, 'id'))).result as PublicScene;
    expect(after.entries[0]?.url).toBeNull();
  });

  it("refuses another tenant's link (N1027) or statement (N1028), a view link, a script address", async () => {
    const db = t.app.ctx.db;
    const foreignLinkId = 990_000_001;
    await db
      .insertInto('sys_nologin_link')
      .values({
        id: foreignLinkId,
        tenant_id: 999,
        title: '别家',
        qr_type: 'form',
        table_id: formId,
        record_id: null,
        mode: 'fillMany',
        expire_time: '2099-01-01 00:00:00',
        max_uses: null,
        use_count: 0,
        revoke_time: null,
        remark: null,
        create_time: '2026-01-01 00:00:00',
        create_user_id: 1,
        create_user_name: null,
        is_delete: 0,
      })
      .execute();
    const foreign = await api.envelope(
      admin,
      'POST',
      '/api/sysScene/add',
      sceneInput([{ type: 'form', title: '别家链接', linkId: foreignLinkId }]),
    );
    expect(foreign.code).toBe('N1027');
    const view = await api.ok<NoLoginLink>(admin, 'POST', '/api/sysNoLoginLink/add', {
      title: '查看',
      qrType: 'form',
      tableId: formId,
      mode: 'view',
      days: 1,
    });
    expect(
      (
        await api.envelope(
          admin,
          'POST',
          '/api/sysScene/add',
          sceneInput([{ type: 'form', title: 'v', linkId: view.id }]),
        )
      ).code,
    ).toBe('N1027');
    const own = await db
      .selectFrom('sys_statement')
      .select('tenant_id')
      .where('id', '=', statement.id)
      .executeTakeFirstOrThrow();
    await db.updateTable('sys_statement').set({ tenant_id: 999 }).where('id', '=', statement.id).execute();
    const foreignStatement = await api.envelope(
      admin,
      'POST',
      '/api/sysScene/add',
      sceneInput([{ type: 'statement', title: '别家公示', statementId: statement.id }]),
    );
    await db
      .updateTable('sys_statement')
      .set({ tenant_id: own.tenant_id })
      .where('id', '=', statement.id)
      .execute();
    expect(foreignStatement.code).toBe('N1028');
    const script = await api.envelope(
      admin,
      'POST',
      '/api/sysScene/add',
      sceneInput([{ type: 'link', title: 'x', url: 'javascript:alert(1)' }]),
    );
    expect(script.code).toBe(400);
    expect(Object.keys(script.errors ?? {}).join()).toContain('url');
    expect(await api.code(gzl, 'POST', '/api/sysScene/add', sceneInput(threeEntries()))).toBe(403);
  });

  it('serves an uploaded banner without login; refuses a banner that is not an image (N1029)', async () => {
    const { payload, headers } = multipart('banner.png', PNG_1X1, 'image/png', { fileType: 'image' });
    const up = body<UploadedFile>(
      await authed(t.app, admin, { method: 'POST', url: '/api/sysFile/uploadFile', payload, headers }),
    );
    expect(up.code, JSON.stringify(up)).toBe(200);
    const bannerFileId = (up.result as UploadedFile).id;
    const scene = await api.ok<Scene>(
      admin,
      'POST',
      '/api/sysScene/add',
      sceneInput(threeEntries(), { bannerFileId }),
    );
    const shown = env(await openScene(codeIn(scene.url, 'id'))).result as PublicScene;
    expect(shown.bannerUrl).toMatch(/^\/api\/noLogin\/sceneBanner\?id=/);
    const image = await t.app.inject({ method: 'GET', url: shown.bannerUrl ?? '' });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    const missing = await api.envelope(
      admin,
      'POST',
      '/api/sysScene/add',
      sceneInput(threeEntries(), { bannerFileId: 990_000_002 }),
    );
    expect(missing.code).toBe('N1029');
  });

  it('refuses a withdrawn scene (N1022) and a tampered code (N1000); staff cannot edit it then (N1032)', async () => {
    const scene = await api.ok<Scene>(admin, 'POST', '/api/sysScene/add', sceneInput(threeEntries()));
    const code = codeIn(scene.url, 'id');
    // A character inside the payload (the last one carries bits that decoding ignores).
    const tampered = `${code.slice(0, 10)}${code[10] === 'A' ? 'B' : 'A'}${code.slice(11)}`;
    expect(refusal(await openScene(tampered))).toEqual([401, 'N1000']);
    await api.ok(admin, 'POST', '/api/sysScene/withdraw', { id: scene.id });
    expect(refusal(await openScene(code))).toEqual([401, 'N1022']);
    const page = await api.ok<{ items: Scene[] }>(admin, 'GET', '/api/sysScene/page');
    expect(page.items.find((s) => s.id === scene.id)?.state).toBe('withdrawn');
    expect(
      (
        await api.envelope(admin, 'POST', '/api/sysScene/edit', {
          id: scene.id,
          ...sceneInput(threeEntries()),
        })
      ).code,
    ).toBe('N1032');
  });
});

it('rate-limits a statement per code (N1009, 429)', async () => {
  const limited = await createTestApp({ env: { RATE_LIMIT_NOLOGIN_LINK: '2' } });
  try {
    const calls = apiCalls(() => limited.app);
    const a = (await login(limited.app, 'admin')).accessToken;
    const f = await calls.ok<number>(a, 'POST', '/api/diyTable/add', { title: 'r', fillers: ALL });
    await calls.ok(a, 'PUT', '/api/diyTable/design', { id: f, design: DESIGN, publish: true });
    const statement = await calls.ok<Statement>(a, 'POST', '/api/sysStatement/add', {
      title: 'r',
      kind: 'dataset',
      tableId: f,
      fields: ['name'],
      days: 1,
    });
    const url = `/api/noLogin/statement?loadCodedate=${codeIn(statement.url, 'loadCodedate')}`;
    const answers = [];
    for (let i = 0; i < 3; i += 1)
      answers.push(await limited.app.inject({ method: 'GET', url, remoteAddress: `10.2.0.${i}` }));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 429]);
    expect(env(answers[2] as LightMyRequestResponse).code).toBe('N1009');
  } finally {
    await limited.close();
  }
});
