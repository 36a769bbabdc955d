import {
  AUDIT_STATUS_ALL,
  type AuditForm,
  type AuditRow,
  type DiyRecord,
  type RecordHistory,
} from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { REALTIME_EVENTS, type RecordReviewedPayload } from '@shuzhi/contracts/realtime';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unionAll } from '../src/modules/diy-data/diy-review.ts';
import { wallClockAt } from '../src/platform/db/time.ts';
import type { AnyDb } from '../src/platform/diy/data-table.ts';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { multipart, PNG_1X1 } from './upload.fixture.ts';

/**
 * Issue 5 §3, §5, §7: review of records (approve / return, the review page across forms), hand-over,
 * submission events, serial numbers on demand, recounting, and the files of a record readable by whoever
 * may read the record.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let fgw: string;
let njd: string;
let orgs: Record<string, number>;
let users: Record<string, number>;
let formId: number;

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };

const AUDIENCE = (orgIds: number[]) => ({ all: false, orgIds, roleIds: [], userIds: [], enterprises: false });

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'files', type: 'attachment', label: '附件' },
    {
      id: 'rows',
      type: 'subTable',
      label: '明细',
      columns: [
        { id: 'item', type: 'text', label: '品名' },
        { id: 'photo', type: 'image', label: '照片' },
      ],
    },
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
  numbering: { prefix: 'SH-', datePart: 'none', digits: 3 },
};

async function add(token: string, values: Record<string, unknown>, submit = true, id = formId) {
  return api.ok<number>(token, 'POST', `/api/diyData/${id}/add`, { values, submit });
}

async function record(token: string, id: number, table = formId) {
  return api.ok<DiyRecord>(token, 'GET', `/api/diyData/${table}/${id}`);
}

async function history(token: string, id: number, table = formId) {
  return api.ok<RecordHistory[]>(token, 'GET', `/api/diyData/${table}/history?id=${id}`);
}

async function upload(token: string, name: string): Promise<number> {
  const form = multipart(name, PNG_1X1, 'image/png');
  const response = await authed(t.app, token, {
    method: 'POST',
    url: '/api/sysFile/uploadFile',
    payload: form.payload,
    headers: form.headers,
  });
  const env = body<{ id: number }>(response);
  expect(env.code, JSON.stringify(env)).toBe(200);
  return (env.result as { id: number }).id;
}

async function download(token: string, fileId: number): Promise<number | string> {
  const response = await authed(t.app, token, { method: 'GET', url: `/api/sysFile/download/${fileId}` });
  if (response.headers['content-type']?.toString().startsWith('image/')) return response.statusCode;
  return body(response).code;
}

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
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  njd = (await login(t.app, 'njdleader')).accessToken;
  orgs = Object.fromEntries(
    (await db.selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  users = Object.fromEntries(
    (await db.selectFrom('sys_user').select(['id', 'account']).execute()).map((r) => [r.account, r.id]),
  );
  // Fillers: the community (贵州路居委) and the commission (发改委); fgwstaff also reviews by id although
  // they hold no diyReport:audit; njdleader reviews through diyReport:audit within their street's subtree.
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '审核测试表',
    fillers: AUDIENCE([orgs['310101002001'] as number, orgs['HPQ-FGW'] as number]),
    reviewerIds: [users.fgwstaff],
    needsReview: true,
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
});

afterAll(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  await t?.close();
});

const sockets: Socket[] = [];

async function openSocket(token: string): Promise<Socket> {
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const socket = connect(base, {
    path: '/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    auth: { token },
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

function nextEvent<T>(socket: Socket, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

describe('review', () => {
  it('offers myAuth.audit exactly to reviewers, and the server allows exactly that', async () => {
    const auth = async (token: string) =>
      (await api.ok<{ item: { myAuth: { audit: boolean } } }>(token, 'GET', `/api/diyData/${formId}/design`))
        .item.myAuth.audit;
    expect(await auth(gzl)).toBe(false);
    expect(await auth(fgw)).toBe(true);
    expect(await auth(njd)).toBe(true);
    expect(await auth(admin)).toBe(true);
    const id = await add(gzl, { name: '权限检查' });
    expect((await record(gzl, id)).can.audit).toBe(false);
    expect((await record(njd, id)).can.audit).toBe(true);
    expect(
      await api.code(gzl, 'POST', `/api/diyData/${formId}/audit`, { ids: [id], action: 'approve' }),
    ).toBe('F1001');
    await api.ok(njd, 'POST', `/api/diyData/${formId}/audit`, { ids: [id], action: 'approve' });
    const approved = await record(gzl, id);
    expect(approved).toMatchObject({ status: 2, auditUserName: '王海燕', auditComment: null });
    expect(approved.can).toMatchObject({ update: false, audit: false });
  });

  it('approves and returns within reach, all or nothing, with history; a returned record is resubmitted', async () => {
    const one = await add(gzl, { name: '甲' });
    const two = await add(gzl, { name: '乙' });
    const draft = await add(gzl, { name: '草稿' }, false);
    const theirs = await add(fgw, { name: '发改委' });
    const audit = (token: string, payload: unknown) =>
      api.envelope(token, 'POST', `/api/diyData/${formId}/audit`, payload) as Promise<Envelope>;

    // Outside the reviewer's reach: the commission's record is not in the street's subtree, and the
    // commission's reviewer-by-id sees only their own org.
    expect((await audit(njd, { ids: [theirs], action: 'approve' })).code).toBe('F1008');
    expect((await audit(fgw, { ids: [one], action: 'approve' })).code).toBe('F1008');
    // A draft is not awaiting review: nothing of the call is kept.
    expect((await audit(njd, { ids: [one, draft], action: 'approve' })).code).toBe('F1012');
    expect((await record(gzl, one)).status).toBe(1);

    // Returning needs a comment: a field error, in the request's language.
    const missing = await audit(njd, { ids: [two], action: 'return', comment: '   ' });
    expect(missing.code).toBe(400);
    expect(missing.errors).toEqual({ comment: ['退回时必须填写审核意见'] });
    const en = body(
      await authed(t.app, njd, {
        method: 'POST',
        url: `/api/diyData/${formId}/audit`,
        payload: { ids: [two], action: 'return' },
        headers: { 'accept-language': 'en' },
      }),
    );
    expect(en.errors).toEqual({ comment: ['Enter a comment to return a record'] });

    for (const bad of [
      { ids: 'x', action: 'approve' },
      { ids: [], action: 'approve' },
      { ids: [one], action: 'maybe' },
      { ids: [one] },
      { ids: [one], action: 'return', comment: 'x'.repeat(1001) },
    ]) {
      expect((await audit(njd, bad)).code, JSON.stringify(bad)).toBe(400);
    }

    expect((await audit(njd, { ids: [one], action: 'approve', comment: '同意' })).code).toBe(200);
    expect((await audit(njd, { ids: [one], action: 'approve' })).code).toBe('F1012');
    expect((await audit(njd, { ids: [two], action: 'return', comment: '数据有误' })).code).toBe(200);
    expect((await audit(fgw, { ids: [theirs], action: 'approve' })).code).toBe(200);

    expect(await record(gzl, one)).toMatchObject({ status: 2, auditComment: '同意' });
    const returned = await record(gzl, two);
    expect(returned).toMatchObject({ status: 3, auditUserName: '王海燕', auditComment: '数据有误' });
    expect(returned.can).toMatchObject({ update: true, submit: true, audit: false });
    expect((await record(fgw, theirs)).status).toBe(2);

    const steps = await history(gzl, one);
    expect(steps.map((s) => s.action)).toEqual(['create', 'submit', 'approve']);
    expect(steps[2]).toMatchObject({ comment: '同意', userName: '王海燕' });
    expect(steps[2]?.changes).toEqual([{ field: 'status', label: '状态', before: 1, after: 2 }]);

    // The filler corrects and resubmits the returned record: submitted again, history shows each step.
    await api.ok(gzl, 'PUT', `/api/diyData/${formId}/update`, {
      id: two,
      values: { name: '乙改' },
      submit: true,
    });
    const again = await record(gzl, two);
    expect(again).toMatchObject({ status: 1, values: { name: '乙改' } });
    const twoSteps = await history(gzl, two);
    expect(twoSteps.map((s) => s.action)).toEqual(['create', 'submit', 'return', 'update', 'submit']);
    expect(twoSteps[2]?.comment).toBe('数据有误');
    expect(twoSteps[4]?.changes).toEqual([{ field: 'status', label: '状态', before: 3, after: 1 }]);
    expect((await record(njd, two)).can.audit).toBe(true);
  });

  it('tells the filer in real time when their records are reviewed', async () => {
    const socket = await openSocket(gzl);
    const id = await add(gzl, { name: '实时通知' });
    const told = nextEvent<RecordReviewedPayload>(socket, REALTIME_EVENTS.recordReviewed);
    await api.ok(njd, 'POST', `/api/diyData/${formId}/audit`, {
      ids: [id],
      action: 'return',
      comment: '请补充',
    });
    expect(await told).toEqual({
      tableId: formId,
      tableTitle: '审核测试表',
      ids: [id],
      action: 'return',
      comment: '请补充',
      reviewerName: '王海燕',
    });
  });

  it('pages the records the caller reviews across forms, each narrowed to its reach', async () => {
    const other = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '第二张审核表',
      fillers: AUDIENCE([orgs['310101002001'] as number]),
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id: other,
      design: { fields: [{ id: 'name', type: 'text', label: '名称' }] },
      publish: true,
    });
    const noReview = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '无需审核表',
      fillers: AUDIENCE([orgs['310101002001'] as number]),
      needsReview: false,
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id: noReview,
      design: { fields: [{ id: 'name', type: 'text', label: '名称' }] },
      publish: true,
    });
    const first = await add(gzl, { name: '第二表记录' }, true, other);
    await add(gzl, { name: '不需审核' }, true, noReview);
    await add(gzl, { name: '第二表草稿' }, false, other);
    const fgwOwn = await add(fgw, { name: '发改委待审' });

    const page = (token: string, payload: object = {}) =>
      api.ok<PageResult<AuditRow>>(token, 'POST', '/api/diyReport/auditPage', payload);

    // The demo seed has forms and records of its own: counts are checked on this test's two forms.
    const mine = (rows: AuditRow[]) => rows.filter((r) => r.tableId === formId || r.tableId === other);
    const street = await page(njd, { pageSize: 1000 });
    const streetMine = mine(street.items);
    expect(street.items.every((r) => r.status === 1)).toBe(true);
    expect(street.items.map((r) => r.tableId)).toContain(other);
    expect(street.items.map((r) => r.tableId)).not.toContain(noReview);
    expect(street.items.map((r) => r.id)).not.toContain(fgwOwn);
    expect(streetMine.map((r) => r.createOrgName)).toEqual(streetMine.map(() => '贵州路居民委员会'));
    const firstRow = street.items.find((r) => r.id === first);
    expect(firstRow).toMatchObject({ tableTitle: '第二张审核表', createUserName: '吴静', dataNo: null });
    const times = street.items.map((r) => r.submitTime ?? '');
    expect([...times].sort().reverse()).toEqual(times);

    // The reviewer by id sees their org's records of the one form naming them; the filler reviews nothing.
    const byId = await page(fgw, { pageSize: 100 });
    expect(byId.items.map((r) => r.id)).toContain(fgwOwn);
    expect(byId.items.every((r) => r.tableId === formId && r.createOrgName === '区发展和改革委员会')).toBe(
      true,
    );
    expect(await page(gzl)).toMatchObject({ total: 0, items: [] });
    expect(await api.ok<AuditForm[]>(gzl, 'GET', '/api/diyReport/auditForms')).toEqual([]);

    // Filters, paging and sorting.
    const all = await page(admin, { pageSize: 1000 });
    expect(mine(all.items)).toHaveLength(streetMine.length + byId.total);
    const paged = await page(admin, { pageSize: 1, page: 2 });
    expect(paged).toMatchObject({ total: all.total, page: 2, hasPrevPage: true });
    expect(paged.items).toHaveLength(1);
    expect(paged.items[0]?.id).toBe(all.items[1]?.id);
    expect((await page(njd, { tableId: other })).items.map((r) => r.id)).toEqual([first]);
    expect((await page(njd, { tableId: other, status: 0 })).items.map((r) => r.status)).toEqual([0]);
    const everyState = await page(njd, { status: AUDIT_STATUS_ALL, pageSize: 1000 });
    expect(everyState.items.map((r) => r.id)).toContain(first);
    expect(everyState.items.every((r) => [1, 2, 3].includes(r.status))).toBe(true);
    expect(everyState.total).toBeGreaterThanOrEqual(street.total);
    const named = await page(njd, { keyword: '吴静', pageSize: 1000 });
    expect(mine(named.items)).toHaveLength(streetMine.length);
    expect(named.items.every((r) => r.createUserName === '吴静' || /吴静/.test(r.dataNo ?? ''))).toBe(true);
    const inForm = streetMine.filter((r) => r.tableId === formId).length;
    expect((await page(njd, { tableId: formId, keyword: '张伟' })).total).toBe(0);
    expect((await page(admin, { tableId: formId, keyword: '%' })).total).toBe(0);
    expect((await page(njd, { tableId: formId, submitTime: ['2000-01-01', '2000-12-31'] })).total).toBe(0);
    const nextYear = wallClockAt().year + 1;
    expect(
      (await page(njd, { tableId: formId, submitTime: ['2020-01-01', `${nextYear}-12-31`] })).total,
    ).toBe(inForm);
    const byTable = await page(admin, { field: 'tableId', order: 'ascending', pageSize: 1000 });
    const tableIds = byTable.items.map((r) => r.tableId);
    expect([...tableIds].sort((a, b) => a - b)).toEqual(tableIds);
    expect((await page(njd, { tableId: noReview })).total).toBe(0);

    for (const bad of [
      { pageSize: 0 },
      { status: 'x' },
      { submitTime: ['x'] },
      { tableId: 'x' },
      { page: 'a' },
    ]) {
      expect(await api.code(njd, 'POST', '/api/diyReport/auditPage', bad), JSON.stringify(bad)).toBe(400);
    }

    const forms = await api.ok<AuditForm[]>(njd, 'GET', '/api/diyReport/auditForms');
    const pending = Object.fromEntries(forms.map((f) => [f.value, f.pending]));
    expect(pending[other]).toBe(1);
    expect(pending[formId]).toBe(inForm);
    expect(pending).not.toHaveProperty(String(noReview));
    expect(forms.find((f) => f.value === other)?.label).toBe('第二张审核表');
    const fgwForms = await api.ok<AuditForm[]>(fgw, 'GET', '/api/diyReport/auditForms');
    expect(fgwForms.map((f) => f.value)).toEqual([formId]);
  });
});

describe('hand-over and submission events', () => {
  it('hands records to a user of the fillers, refusing others and callers without the right', async () => {
    const id = await add(gzl, { name: '移交' }, false);
    const call = (token: string, payload: unknown) =>
      api.code(token, 'POST', '/api/diyTable/UpdateCreateUser', payload);
    expect(await call(gzl, { tableId: formId, ids: [id], userId: users.fgwstaff })).toBe('F1001');
    expect(await call(admin, { tableId: formId, ids: [id], userId: users.njdleader })).toBe('F1013');
    expect(await call(admin, { tableId: formId, ids: [id], userId: 12345 })).toBe('F1013');
    expect(await call(admin, { tableId: formId, ids: [id], userId: users.superadmin })).toBe('F1013');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ status: 2 })
      .where('id', '=', users.gridstaff as number)
      .execute();
    expect(await call(admin, { tableId: formId, ids: [id], userId: users.gridstaff })).toBe('F1013');
    expect(await call(admin, { tableId: formId, ids: [1], userId: users.fgwstaff })).toBe('F1008');
    for (const bad of [
      { tableId: formId, ids: [], userId: users.fgwstaff },
      { tableId: formId, ids: [id], userId: 'x' },
      { tableId: 'x', ids: [id], userId: users.fgwstaff },
      { ids: [id], userId: users.fgwstaff },
    ]) {
      expect(await call(admin, bad), JSON.stringify(bad)).toBe(400);
    }
    expect(await api.code(admin, 'POST', '/api/diyTable/UpdateCreateUser', undefined)).toBe(400);

    await api.ok(admin, 'POST', '/api/diyTable/UpdateCreateUser', {
      tableId: formId,
      ids: [id],
      userId: users.fgwstaff,
    });
    const moved = await record(fgw, id);
    expect(moved).toMatchObject({
      createUserId: users.fgwstaff,
      createUserName: '张伟',
      createOrgId: orgs['HPQ-FGW'],
      createOrgName: '区发展和改革委员会',
    });
    expect(moved.can.update).toBe(true);
    expect(await api.code(gzl, 'GET', `/api/diyData/${formId}/${id}`)).toBe('F1008');
    const steps = await history(fgw, id);
    expect(steps.at(-1)?.action).toBe('handover');
    expect(steps.at(-1)?.changes).toEqual([
      { field: 'createUserName', label: '填报人', before: '吴静', after: '张伟' },
      { field: 'createOrgName', label: '填报单位', before: '贵州路居民委员会', after: '区发展和改革委员会' },
    ]);
    // A reviewer may hand over too (records within their reach).
    const other = await add(gzl, { name: '移交二' });
    await api.ok(njd, 'POST', '/api/diyTable/UpdateCreateUser', {
      tableId: formId,
      ids: [other],
      userId: users.gzlstaff,
    });
  });

  it('registers a submission event by the record’s filler or a form admin', async () => {
    const id = await add(gzl, { name: '登记' }, false);
    const call = (token: string, payload: unknown) =>
      api.code(token, 'POST', '/api/diyTable/RegisterSubmit', payload);
    expect(await call(gzl, { tableId: formId })).toBe(400);
    expect(await call(gzl, { tableId: formId, id: 'x' })).toBe(400);
    expect(await call(gzl, { tableId: formId, id, comment: 'x'.repeat(501) })).toBe(400);
    expect(await call(gzl, { tableId: formId, id: 1 })).toBe('F1008');
    expect(await call(fgw, { tableId: formId, id })).toBe('F1008');
    expect(await call(njd, { tableId: formId, id })).toBe('F1001');
    await api.ok(gzl, 'POST', '/api/diyTable/RegisterSubmit', {
      tableId: formId,
      id,
      comment: '纸质材料已交',
    });
    await api.ok(admin, 'POST', '/api/diyTable/RegisterSubmit', { tableId: formId, id });
    const steps = await history(gzl, id);
    expect(steps.slice(-2).map((s) => [s.action, s.comment])).toEqual([
      ['registerSubmit', '纸质材料已交'],
      ['registerSubmit', null],
    ]);
  });
});

describe('serial numbers on demand and counts', () => {
  it('numbers records without one, distinct and consecutive under concurrency, idempotently', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '补编号',
      fillers: AUDIENCE([orgs['310101002001'] as number, orgs['HPQ-FGW'] as number]),
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: {
        fields: [
          { id: 'name', type: 'text', label: '名称' },
          { id: 'sn', type: 'serialNo', label: '编号' },
        ],
        numbering: { prefix: 'BN-', datePart: 'none', digits: 3 },
      },
      publish: true,
    });
    const drafts: number[] = [];
    for (let i = 0; i < 12; i++) drafts.push(await add(i % 3 ? gzl : fgw, { name: `草稿${i}` }, false, id));
    const numbers = await Promise.all(
      drafts.map((recordId, i) =>
        api.ok<{ dataNo: string }>(i % 3 ? gzl : fgw, 'POST', `/api/diyTable/tableDataNo/${id}`, {
          recordId,
        }),
      ),
    );
    expect(numbers.map((n) => n.dataNo).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `BN-${String(i + 1).padStart(3, '0')}`),
    );
    // Twice at once on the same record, and later again: the same number.
    const [a, b] = await Promise.all([
      api.ok<{ dataNo: string }>(gzl, 'POST', `/api/diyTable/tableDataNo/${id}`, { recordId: drafts[1] }),
      api.ok<{ dataNo: string }>(admin, 'POST', `/api/diyTable/tableDataNo/${id}`, { recordId: drafts[1] }),
    ]);
    expect(a).toEqual(numbers[1]);
    expect(b).toEqual(numbers[1]);
    const numbered = await record(gzl, drafts[1] as number, id);
    expect(numbered).toMatchObject({ dataNo: numbers[1]?.dataNo, values: { sn: numbers[1]?.dataNo } });
    // A later submission continues the sequence.
    const next = await add(gzl, { name: '提交' }, true, id);
    expect((await record(gzl, next, id)).dataNo).toBe('BN-013');

    const call = (token: string, url: string, payload: unknown) => api.code(token, 'POST', url, payload);
    expect(await call(gzl, `/api/diyTable/tableDataNo/${id}`, {})).toBe(400);
    expect(await call(gzl, `/api/diyTable/tableDataNo/${id}`, { recordId: 'x' })).toBe(400);
    expect(await call(gzl, `/api/diyTable/tableDataNo/${id}`, { recordId: 1 })).toBe('F1008');
    expect(await call(fgw, `/api/diyTable/tableDataNo/${id}`, { recordId: drafts[1] })).toBe('F1008');
    const outsider = (await login(t.app, 'mzjchief')).accessToken;
    expect(await call(outsider, `/api/diyTable/tableDataNo/${id}`, { recordId: drafts[1] })).toBe('F1000');
    expect(await call(gzl, '/api/diyTable/tableDataNo/1', { recordId: drafts[1] })).toBe('F1000');
  });

  it('recounts the live records of a form for those who may open it', async () => {
    const db = t.app.ctx.db;
    await db.updateTable('diy_table').set({ record_count: 999 }).where('id', '=', formId).execute();
    const live = await api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${formId}/page`, {});
    const counted = await api.ok<{ count: number }>(gzl, 'POST', `/api/diyTable/updateDataCount/${formId}`);
    expect(counted.count).toBe(live.total);
    const stored = await db
      .selectFrom('diy_table')
      .select('record_count')
      .where('id', '=', formId)
      .executeTakeFirst();
    expect(stored?.record_count).toBe(live.total);
    const doomed = await add(gzl, { name: '删除' }, false);
    await api.ok(gzl, 'DELETE', `/api/diyData/${formId}/${doomed}`);
    expect(
      (await api.ok<{ count: number }>(admin, 'POST', `/api/diyTable/updateDataCount/${formId}`, {})).count,
    ).toBe(live.total);
    const outsider = (await login(t.app, 'mzjchief')).accessToken;
    expect(await api.code(outsider, 'POST', `/api/diyTable/updateDataCount/${formId}`)).toBe('F1000');
    expect(await api.code(gzl, 'POST', '/api/diyTable/updateDataCount/1')).toBe('F1000');
  });
});

describe('files of a record', () => {
  it('lets whoever may read the record read its files, and releases files the record drops', async () => {
    const file = await upload(gzl, '现场.png');
    const photo = await upload(gzl, '明细照片.png');
    const id = await add(gzl, { name: '带附件', files: [file], rows: [{ item: '甲', photo: [photo] }] });
    const rows = await t.app.ctx.db
      .selectFrom('sys_file')
      .select(['id', 'belong_id', 'file_type'])
      .where('id', 'in', [file, photo])
      .execute();
    expect(rows.map((r) => [r.belong_id, r.file_type])).toEqual([
      [id, `diy:${formId}`],
      [id, `diy:${formId}`],
    ]);
    const shown = await record(njd, id);
    expect(shown.labels).toMatchObject({ files: '现场.png', 'rows[0].photo': '明细照片.png' });

    expect(await download(gzl, file)).toBe(200);
    // The street's reviewer reads the record, so its files; the commission's staff does not.
    expect(await download(njd, file)).toBe(200);
    expect(await download(njd, photo)).toBe(200);
    expect(await download(fgw, file)).toBe('D1002');

    // A file of another user cannot be put on a record; the record's files cannot be taken by another record.
    const fgwFile = await upload(fgw, '发改委.png');
    const refused = (await api.envelope(gzl, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: '别人的附件', files: [fgwFile] },
    })) as Envelope;
    expect(refused.code).toBe(400);

    // Dropping the file from the record releases it: the reviewer no longer reads it.
    await api.ok(gzl, 'PUT', `/api/diyData/${formId}/update`, {
      id,
      values: { name: '带附件', files: [], rows: [{ item: '甲', photo: [photo] }] },
    });
    expect(await download(njd, file)).toBe('D1002');
    expect(await download(njd, photo)).toBe(200);
    expect(await download(gzl, file)).toBe(200);
    const released = await t.app.ctx.db
      .selectFrom('sys_file')
      .select(['belong_id', 'file_type'])
      .where('id', '=', file)
      .executeTakeFirstOrThrow();
    expect(released).toEqual({ belong_id: null, file_type: 'attachment' });
  });
});

describe('the review union', () => {
  it('joins more forms than one compound select may hold', async () => {
    const db = t.app.ctx.db as unknown as AnyDb;
    const tenant = await t.app.ctx.db.selectFrom('sys_tenant').select('id').executeTakeFirstOrThrow();
    const parts = Array.from({ length: 901 }, (_, i) =>
      db
        .selectFrom('sys_tenant')
        .select(sql<number>`${sql.lit(i)}`.as('n'))
        .where('id', '=', tenant.id),
    );
    const rows = (await db.selectFrom(unionAll(db, parts).as('u')).selectAll().execute()) as { n: number }[];
    expect(rows.map((r) => Number(r.n)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 901 }, (_, i) => i),
    );
  });
});
