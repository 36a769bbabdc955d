import { createHash } from 'node:crypto';
import type { RowConfirmCreateResult, RowConfirmDetail, RowConfirmItem } from '@shuzhi/contracts/diy-confirm';
import type { DiyRecord, RecordHistory } from '@shuzhi/contracts/diy-table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfirmCode, signConfirmCode } from '../src/modules/diy-confirm/diy-confirm.service.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import { apiCalls, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 6 §6: row confirmation. Staff who may update or review a record send its subject a signed, expiring
 * link; the no-login routes show that row only and take one answer, written to the record's history, and
 * refuse a code that is tampered, expired, reused, for another row or of another tenant.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let fgw: string;
let gzl: string;
let hp: string;
let formId: number;
let users: Record<string, number>;

const AUDIENCE = (orgIds: number[]) => ({ all: false, orgIds, roleIds: [], userIds: [], enterprises: false });

const DESIGN = {
  fields: [
    { id: 'intro', type: 'section', label: '基本信息', content: '内部说明' },
    { id: 'name', type: 'text', label: '名称', required: true, pattern: { regex: '^[^x]+$' } },
    {
      id: 'kind',
      type: 'select',
      label: '类别',
      options: {
        source: 'options',
        items: [
          { value: 'a', label: '甲类' },
          { value: 'b', label: '乙类' },
        ],
      },
    },
    { id: 'qty', type: 'integer', label: '数量', default: { kind: 'constant', value: 5 } },
    { id: 'who', type: 'user', label: '负责人' },
  ],
};

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };

async function addRecord(values: Record<string, unknown>): Promise<number> {
  return api.ok<number>(fgw, 'POST', `/api/diyData/${formId}/add`, { values, submit: true });
}

async function create(token: string, recordId: number, days = 7, subject?: string) {
  return api.envelope<RowConfirmCreateResult>(token, 'POST', '/api/diyConfirm/create', {
    tableId: formId,
    recordId,
    days,
    ...(subject === undefined ? {} : { subject }),
  });
}

async function link(recordId: number, subject?: string): Promise<RowConfirmCreateResult> {
  const env = await create(fgw, recordId, 7, subject);
  expect(env.code, JSON.stringify(env)).toBe(200);
  return env.result as RowConfirmCreateResult;
}

async function detail(code: string, table = formId): Promise<Envelope> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/diyTable/detailByNoLogin/${table}/${encodeURIComponent(code)}`,
  });
  return body(response) as Envelope;
}

async function answer(recordId: number, payload: Record<string, unknown>): Promise<Envelope> {
  const response = await t.app.inject({
    method: 'PUT',
    url: `/api/diyTable/updateDataByNoLogin/${recordId}`,
    payload,
  });
  return body(response) as Envelope;
}

const history = (id: number) =>
  api.ok<RecordHistory[]>(fgw, 'GET', `/api/diyData/${formId}/history?id=${id}`);
const record = (id: number) => api.ok<DiyRecord>(fgw, 'GET', `/api/diyData/${formId}/${id}`);
const list = (token: string, id: number) =>
  api.ok<RowConfirmItem[]>(token, 'GET', `/api/diyConfirm/list?tableId=${formId}&recordId=${id}`);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  await db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  hp = (await login(t.app, 'hpleader')).accessToken;
  const orgs = Object.fromEntries(
    (await db.selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  users = Object.fromEntries(
    (await db.selectFrom('sys_user').select(['id', 'account']).execute()).map((r) => [r.account, r.id]),
  );
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '确认测试表',
    fillers: AUDIENCE([orgs['310101002001'] as number, orgs['HPQ-FGW'] as number]),
    reviewerIds: [users.hpleader],
    needsReview: true,
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
});

afterAll(async () => {
  await t?.close();
});

describe('create and list', () => {
  it('gives the filler a signed link whose code is stored only as its hash', async () => {
    const id = await addRecord({ name: '甲公司', kind: 'a', qty: 3 });
    const before = Date.now();
    const created = await link(id, '张三');
    const url = new URL(created.url, 'http://x');
    expect(url.pathname).toBe('/diyReport/rowConfirm');
    expect(url.searchParams.get('t')).toBe(String(formId));
    expect(url.searchParams.get('c')).toBe(created.code);
    const claims = readConfirmCode(t.app.ctx, created.code);
    expect(claims).toMatchObject({ tableId: formId, recordId: id, confirmId: created.id });
    const seven = before + 7 * 24 * 3600 * 1000;
    expect(Math.abs((claims?.expires ?? 0) * 1000 - seven)).toBeLessThan(5000);
    const row = await t.app.ctx.db
      .selectFrom('diy_row_confirm')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.code_hash).toBe(createHash('sha256').update(created.code).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.code);
    expect(row).toMatchObject({ subject: '张三', answer: null, expire_time: created.expireTime });
    expect(await list(fgw, id)).toMatchObject([{ id: created.id, subject: '张三', state: 'open' }]);
  });

  it('refuses bad input, callers who may not reach the record, and anonymous callers', async () => {
    const id = await addRecord({ name: '乙公司' });
    expect(
      await api.code(fgw, 'POST', '/api/diyConfirm/create', { tableId: formId, recordId: id, days: 2 }),
    ).toBe(400);
    expect(await api.code(fgw, 'POST', '/api/diyConfirm/create', { tableId: formId, days: 7 })).toBe(400);
    expect((await create(fgw, 99_999_999)).code).toBe('F1008');
    // gzlstaff fills the form for another org: the record is outside their reach.
    expect((await create(gzl, id)).code).toBe('F1008');
    expect(await api.code(gzl, 'GET', `/api/diyConfirm/list?tableId=${formId}&recordId=${id}`)).toBe('F1008');
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/diyConfirm/create',
      payload: { tableId: formId, recordId: id, days: 7 },
    });
    expect(body(anonymous).code).toBe(401);
  });

  it('lets reviewers send links for approved records, and no longer the filler', async () => {
    const id = await addRecord({ name: '丙公司' });
    await api.ok(hp, 'POST', `/api/diyData/${formId}/audit`, { ids: [id], action: 'approve' });
    expect((await create(fgw, id)).code).toBe('F1001');
    const env = await create(hp, id, 1);
    expect(env.code).toBe(200);
    expect((await list(hp, id)).length).toBe(1);
    // The filler still sees the links of their record.
    expect((await list(fgw, id)).length).toBe(1);
  });
});

describe('the no-login detail', () => {
  it('shows that one row with its value fields only', async () => {
    const id = await addRecord({ name: '丁公司', kind: 'b', qty: 7, who: users.fgwstaff });
    const realName = (
      await t.app.ctx.db
        .selectFrom('sys_user')
        .select('real_name')
        .where('account', '=', 'fgwstaff')
        .executeTakeFirstOrThrow()
    ).real_name;
    const created = await link(id, '李四');
    const env = await detail(created.code);
    expect(env.code, JSON.stringify(env)).toBe(200);
    const result = env.result as RowConfirmDetail;
    expect(result).toMatchObject({
      tableId: formId,
      recordId: id,
      title: '确认测试表',
      subject: '李四',
      expireTime: created.expireTime,
      answered: false,
      // A user is shown by name: the page needs no signed-in lookup.
      values: { name: '丁公司', kind: 'b', qty: 7, who: realName },
      labels: { kind: '乙类', who: realName },
    });
    expect(result.design.fields.map((f) => [f.id, f.type])).toEqual([
      ['name', 'text'],
      ['kind', 'select'],
      ['qty', 'integer'],
      ['who', 'text'],
    ]);
    const text = JSON.stringify(result);
    for (const hidden of ['^[^x]+$', '内部说明', 'createUserName', 'fgwstaff', '"default"']) {
      expect(text).not.toContain(hidden);
    }
  });

  it('refuses a tampered, malformed, foreign-form or other-tenant code', async () => {
    const id = await addRecord({ name: '戊公司' });
    const created = await link(id);
    const bytes = Buffer.from(created.code, 'base64url');
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    expect((await detail(flipped.toString('base64url'))).code).toBe('F1017');
    expect((await detail('not-a-code')).code).toBe('F1017');
    expect((await detail(created.code.slice(0, -4))).code).toBe('F1017');
    // A payload naming another record, with the signature of this one.
    const other = Buffer.from(bytes);
    other.writeBigUInt64BE(BigInt(id + 1), 17);
    expect((await detail(other.toString('base64url'))).code).toBe('F1017');
    const claims = readConfirmCode(t.app.ctx, created.code);
    if (!claims) throw new Error('unreadable code');
    // Right code, another form in the path.
    expect((await detail(created.code, formId + 1)).code).toBe('F1020');
    // Correctly signed, but naming another tenant: no stored link matches.
    const foreign = signConfirmCode(t.app.ctx, { ...claims, tenantId: claims.tenantId + 1 });
    expect((await detail(foreign)).code).toBe('F1017');
    // A link whose stored row moved to another tenant no longer opens.
    await t.app.ctx.db
      .updateTable('diy_row_confirm')
      .set({ tenant_id: claims.tenantId + 1 })
      .where('id', '=', created.id)
      .execute();
    expect((await detail(created.code)).code).toBe('F1017');
  });

  it('refuses an expired code, by the stored expiry and by the code’s own', async () => {
    const id = await addRecord({ name: '己公司' });
    const created = await link(id);
    await t.app.ctx.db
      .updateTable('diy_row_confirm')
      .set({ expire_time: formatDateTime(new Date(Date.now() - 1000)) })
      .where('id', '=', created.id)
      .execute();
    expect((await detail(created.code)).code).toBe('F1018');
    expect((await answer(id, { code: created.code, answer: 'confirm' })).code).toBe('F1018');
    expect(await list(fgw, id)).toMatchObject([{ state: 'expired' }]);

    // A code that says it expired a minute ago, stored as if it were still open.
    const claims = readConfirmCode(t.app.ctx, created.code);
    if (!claims) throw new Error('unreadable code');
    const confirmId = t.app.ctx.newId();
    const stale = signConfirmCode(t.app.ctx, {
      ...claims,
      confirmId,
      expires: Math.floor(Date.now() / 1000) - 60,
    });
    await t.app.ctx.db
      .insertInto('diy_row_confirm')
      .values({
        id: confirmId,
        tenant_id: claims.tenantId,
        table_id: formId,
        record_id: id,
        code_hash: createHash('sha256').update(stale).digest('hex'),
        expire_time: formatDateTime(new Date(Date.now() + 3600_000)),
        subject: null,
        answer: null,
        answer_comment: null,
        answer_time: null,
        answer_ip: null,
        create_time: formatDateTime(),
        create_user_id: users.fgwstaff ?? null,
        create_user_name: 'x',
      })
      .execute();
    expect((await detail(stale)).code).toBe('F1018');
    expect((await history(id)).map((h) => h.action)).toEqual(['create', 'submit']);
  });

  it('answers F1008 when the record was deleted since', async () => {
    const id = await addRecord({ name: '庚公司' });
    const created = await link(id);
    await api.ok(admin, 'DELETE', `/api/diyData/${formId}/delete`, { ids: [id] });
    expect((await detail(created.code)).code).toBe('F1008');
  });
});

describe('the no-login answer', () => {
  it('records a dispute once, in the history, without touching the values', async () => {
    const id = await addRecord({ name: '辛公司', kind: 'a', qty: 9 });
    const created = await link(id, '王五');
    const before = await record(id);
    const row = await t.app.ctx.db
      .selectFrom(`diy_data_${formId}` as 'diy_table')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

    const missing = await answer(id, { code: created.code, answer: 'dispute', comment: '  ' });
    expect(missing.code).toBe(400);
    expect(Object.keys(missing.errors ?? {})).toEqual(['comment']);
    expect((await answer(id, { code: created.code, answer: 'maybe' })).code).toBe(400);
    expect((await answer(id, { answer: 'confirm' })).code).toBe(400);

    const env = await answer(id, { code: created.code, answer: 'dispute', comment: '数量应为 8' });
    expect(env.code, JSON.stringify(env)).toBe(200);

    const steps = await history(id);
    expect(steps.at(-1)).toMatchObject({
      action: 'dispute',
      comment: '数量应为 8',
      userName: '王五',
      changes: [],
    });
    const after = await record(id);
    expect(after.values).toEqual(before.values);
    expect(after.updateTime).toBe(before.updateTime);
    const rowAfter = await t.app.ctx.db
      .selectFrom(`diy_data_${formId}` as 'diy_table')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(rowAfter).toEqual(row);
    const stored = await t.app.ctx.db
      .selectFrom('diy_row_confirm')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ answer: 'dispute', answer_comment: '数量应为 8' });
    expect(stored.answer_ip).toBeTruthy();
    expect(stored.answer_time).toBeTruthy();

    // Reused: neither the page nor a second answer.
    expect((await answer(id, { code: created.code, answer: 'confirm' })).code).toBe('F1019');
    expect((await detail(created.code)).code).toBe('F1019');
    expect(await list(fgw, id)).toMatchObject([{ state: 'disputed', answerComment: '数量应为 8' }]);
    expect((await history(id)).filter((h) => h.action === 'dispute' || h.action === 'confirm').length).toBe(
      1,
    );
  });

  it('records a confirmation (no comment needed) with the default name when no subject was given', async () => {
    const id = await addRecord({ name: '壬公司' });
    const created = await link(id);
    expect((await answer(id, { code: created.code, answer: 'confirm' })).code).toBe(200);
    expect((await history(id)).at(-1)).toMatchObject({
      action: 'confirm',
      userName: '确认人',
      comment: null,
    });
    expect(await list(fgw, id)).toMatchObject([{ state: 'confirmed' }]);
  });

  it('refuses another row’s code with this row’s id', async () => {
    const mine = await addRecord({ name: '癸公司' });
    const other = await addRecord({ name: '子公司' });
    const created = await link(other);
    expect((await answer(mine, { code: created.code, answer: 'confirm' })).code).toBe('F1020');
    expect((await history(mine)).map((h) => h.action)).toEqual(['create', 'submit']);
    // The link is still open for its own row.
    expect(await list(fgw, other)).toMatchObject([{ state: 'open' }]);
  });

  it('takes one of two simultaneous answers', async () => {
    const id = await addRecord({ name: '丑公司' });
    const created = await link(id);
    const results = await Promise.all([
      answer(id, { code: created.code, answer: 'confirm' }),
      answer(id, { code: created.code, answer: 'dispute', comment: '不对' }),
    ]);
    expect(results.map((r) => r.code).sort()).toEqual([200, 'F1019'].sort());
    expect((await history(id)).filter((h) => h.action === 'dispute' || h.action === 'confirm').length).toBe(
      1,
    );
  });
});

describe('rate limit', () => {
  it('limits the no-login routes per address', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_CAPTCHA: '3', RATE_LIMIT_LOGIN: '100000' } });
    try {
      const codes: (number | string)[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await limited.app.inject({
          method: 'GET',
          url: '/api/diyTable/detailByNoLogin/1/not-a-code',
        });
        codes.push(body(response).code);
      }
      expect(codes).toEqual(['F1017', 'F1017', 'F1017', 429, 429]);
    } finally {
      await limited.close();
    }
  });
});
