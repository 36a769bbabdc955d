import type { PageResult } from '@shuzhi/contracts/envelope';
import type {
  NoticeDetail,
  NoticeEventPayload,
  NoticeListRow,
  NoticeRow,
  ReceivedNotice,
  ReceivedNoticeDetail,
  UnreadList,
} from '@shuzhi/contracts/notice';
import { REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { publishDueNotices } from '../src/modules/notice/notice.service.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import { apiCalls, authed, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let base: string;
let admin: string; // 888, scope all
let njd: string; // njdleader: scope 2 on 南京东路街道, granted the notice buttons below
let fgw: string; // fgwleader: same role, scope 2 on 发改委
let staff: string; // fgwstaff: no notice buttons
const users: Record<string, number> = {};
const tokens: Record<string, string> = {};
const sockets: Socket[] = [];

const { ok, code, envelope } = apiCalls(() => t.app);

beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const db = t.app.ctx.db;
  for (const u of await db.selectFrom('sys_user').select(['id', 'account']).execute())
    users[u.account] = u.id;
  const role = await db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', 'dept_town_leader')
    .executeTakeFirstOrThrow();
  const menus = await db
    .selectFrom('sys_menu')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('name', '=', 'sysNotice'),
        eb('permission', 'in', [
          'sysNotice:page',
          'sysNotice:detail',
          'sysNotice:add',
          'sysNotice:update',
          'sysNotice:delete',
          'sysNotice:publish',
          'sysNotice:withdraw',
        ]),
      ]),
    )
    .execute();
  await db
    .insertInto('sys_role_menu')
    .values(menus.map((m) => ({ id: t.app.ctx.newId(), role_id: role.id, menu_id: m.id })))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  njd = (await login(t.app, 'njdleader')).accessToken;
  fgw = (await login(t.app, 'fgwleader')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => {
  await t?.close();
});

async function tokenOf(account: string): Promise<string> {
  tokens[account] ??= (await login(t.app, account)).accessToken;
  return tokens[account] as string;
}

async function orgId(name: string): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_org')
    .select('id')
    .where('name', '=', name)
    .where('is_delete', '=', 0)
    .executeTakeFirstOrThrow();
  return row.id;
}

async function roleId(roleCode: string): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', roleCode)
    .executeTakeFirstOrThrow();
  return row.id;
}

type Draft = { title?: string; content?: string; type?: number; audience?: number; audienceIds?: number[] };
const add = (token: string, draft: Draft = {}) =>
  ok<number>(token, 'POST', '/api/sysNotice/add', {
    title: draft.title ?? '测试通知',
    content: draft.content ?? '<p>正文</p>',
    type: draft.type ?? 1,
    audience: draft.audience ?? 1,
    audienceIds: draft.audienceIds ?? [],
  });
const publish = (token: string, id: number) => ok(token, 'POST', '/api/sysNotice/public', { id });
const detail = (token: string, id: number) =>
  ok<NoticeDetail>(token, 'GET', `/api/sysNotice/detail?Id=${id}`);

/** Accounts holding an inbox row of the notice, sorted. */
async function recipientsOf(id: number): Promise<string[]> {
  const rows = await t.app.ctx.db
    .selectFrom('sys_notice_user as nu')
    .innerJoin('sys_user as u', 'u.id', 'nu.user_id')
    .select('u.account')
    .where('nu.notice_id', '=', id)
    .execute();
  return rows.map((r) => r.account).sort();
}

function open(token: string): Promise<Socket> {
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

function next<T = unknown>(socket: Socket, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

describe('access', () => {
  it('declares a catalogue permission on every admin route and loggedIn on the inbox', () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysNotice/') && r.method !== 'HEAD');
    const byUrl = new Map(routes.map((r) => [`${r.method} ${r.url}`, r.access]));
    for (const url of ['pageReceived', 'unReadList', 'unReadSummary', 'received'])
      expect(byUrl.get(`GET /api/sysNotice/${url}`)).toBe('loggedIn');
    for (const url of ['setRead', 'setAllRead'])
      expect(byUrl.get(`POST /api/sysNotice/${url}`)).toBe('loggedIn');
    expect(byUrl.get('POST /api/sysNotice/public')).toBe('sysNotice:publish');
    expect(byUrl.get('POST /api/sysNotice/withdraw')).toBe('sysNotice:withdraw');
    for (const action of ['page', 'add', 'update', 'delete', 'batchDelete', 'export']) {
      expect(byUrl.get(`POST /api/sysNotice/${action}`), action).toMatch(/^sysNotice:/);
    }
    expect(byUrl.get('GET /api/sysNotice/list')).toBe('sysNotice:list');
    expect(byUrl.get('GET /api/sysNotice/detail')).toBe('sysNotice:detail');
  });

  it('refuses the admin routes to a user without the buttons, but serves them the inbox', async () => {
    expect(await code(staff, 'POST', '/api/sysNotice/page', {})).toBe(403);
    expect(await code(staff, 'POST', '/api/sysNotice/add', { title: 'x', content: '' })).toBe(403);
    expect(await code(staff, 'POST', '/api/sysNotice/public', { id: 1 })).toBe(403);
    expect(await code(staff, 'POST', '/api/sysNotice/withdraw', { id: 1 })).toBe(403);
    expect(await code(staff, 'GET', '/api/sysNotice/unReadSummary')).toBe(200);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/sysNotice/unReadList' });
    expect(anonymous.json().code).toBe(401);
  });
});

describe('validation', () => {
  it('refuses bad add and update inputs with field errors', async () => {
    const bad = async (url: string, payload: object) => {
      const env = await envelope(admin, 'POST', url, payload);
      expect(env.code, JSON.stringify(payload)).toBe(400);
      return env.errors;
    };
    expect(await bad('/api/sysNotice/add', { content: '<p>x</p>' })).toHaveProperty('title');
    expect(await bad('/api/sysNotice/add', { title: '   ', content: 'x' })).toHaveProperty('title');
    expect(await bad('/api/sysNotice/add', { title: 'x'.repeat(129), content: 'x' })).toHaveProperty('title');
    expect(await bad('/api/sysNotice/add', { title: 'x' })).toHaveProperty('content');
    expect(await bad('/api/sysNotice/add', { title: 'x', content: 'x'.repeat(200_001) })).toHaveProperty(
      'content',
    );
    expect(await bad('/api/sysNotice/add', { title: 'x', content: 'x', type: 3 })).toHaveProperty('type');
    expect(await bad('/api/sysNotice/add', { title: 'x', content: 'x', audience: 5 })).toHaveProperty(
      'audience',
    );
    await bad('/api/sysNotice/add', { title: 'x', content: 'x', audience: 4, audienceIds: 'abc' });
    await bad('/api/sysNotice/add', { title: 'x', content: 'x', audience: 4, audienceIds: [-1] });
    expect(await bad('/api/sysNotice/update', { title: 'x' })).toHaveProperty('id');
    await bad('/api/sysNotice/page', { pageSize: 0 });
    await bad('/api/sysNotice/public', { id: 'abc' });
    expect(await code(admin, 'GET', '/api/sysNotice/detail?Id=abc')).toBe(400);
    expect(await code(admin, 'GET', '/api/sysNotice/received?id=0')).toBe(400);
    expect(await code(admin, 'GET', '/api/sysNotice/pageReceived?readStatus=x')).toBe(400);
    expect(await code(admin, 'POST', '/api/sysNotice/setRead', {})).toBe(400);
    expect(await code(admin, 'POST', '/api/sysNotice/withdraw', { id: -2 })).toBe(400);
  });

  it('needs audience ids for orgs, roles and users (D7003), and live ones of the tenant (D1002)', async () => {
    for (const audience of [2, 3, 4]) {
      expect(await code(admin, 'POST', '/api/sysNotice/add', { title: 'x', content: 'x', audience })).toBe(
        'D7003',
      );
    }
    const deleted = t.app.ctx.newId();
    await t.app.ctx.db
      .insertInto('sys_role')
      .values({
        id: deleted,
        tenant_id: (await t.app.ctx.db.selectFrom('sys_role').select('tenant_id').executeTakeFirstOrThrow())
          .tenant_id,
        code: 'gone_role',
        name: '已删除角色',
        data_scope: 4,
        order_no: 1,
        status: 1,
        remark: null,
        create_time: formatDateTime(),
        is_delete: 1,
      })
      .execute();
    const payload = { title: 'x', content: 'x' };
    expect(
      await code(admin, 'POST', '/api/sysNotice/add', { ...payload, audience: 3, audienceIds: [deleted] }),
    ).toBe('D1002');
    expect(
      await code(admin, 'POST', '/api/sysNotice/add', { ...payload, audience: 2, audienceIds: [999999] }),
    ).toBe('D1002');
    expect(
      await code(admin, 'POST', '/api/sysNotice/add', {
        ...payload,
        audience: 4,
        audienceIds: [users.fgwstaff, 1],
      }),
    ).toBe('D1002');
    // A change of kind without ids empties the audience.
    const id = await add(admin, { audience: 4, audienceIds: [users.fgwstaff as number] });
    expect(await code(admin, 'POST', '/api/sysNotice/update', { id, audience: 3 })).toBe('D7003');
    expect(await code(admin, 'POST', '/api/sysNotice/public', { id: 987654321 })).toBe('D1002');
  });

  it('refuses a past, malformed or impossible schedule time', async () => {
    const id = await add(admin);
    expect(await code(admin, 'POST', '/api/sysNotice/public', { id, publishAt: '2020-01-01 08:00:00' })).toBe(
      'D7002',
    );
    expect(await code(admin, 'POST', '/api/sysNotice/public', { id, publishAt: '2099-02-30 08:00:00' })).toBe(
      400,
    );
    expect(await code(admin, 'POST', '/api/sysNotice/public', { id, publishAt: 'tomorrow' })).toBe(400);
    expect((await detail(admin, id)).status).toBe(0);
  });
});

describe('sanitising the body', () => {
  it('strips scripts, handlers, frames and javascript: or data: URLs; keeps the formatting', async () => {
    const dirty = [
      '<h2>标题</h2><p><strong>粗</strong><em>斜</em><u>下划线</u><s>删除</s></p>',
      '<ul><li>一</li></ul><ol><li>二</li></ol><blockquote>引用</blockquote>',
      '<script>alert(1)</script><style>p{}</style><iframe src="https://evil.example"></iframe>',
      '<p onclick="steal()">点<img src="x" onerror="alert(1)"></p>',
      '<a href="javascript:alert(1)">坏链接</a><a href="https://example.com" target="_blank">好链接</a>',
      '<img src="data:image/png;base64,AAAA"><img src="/api/sysFile/preview/123" alt="图">',
      '<img src="https://evil.example/x.png"><img src="/api/sysFile/preview/../../etc/passwd">',
    ].join('');
    const id = await add(admin, { content: dirty });
    const { content } = await detail(admin, id);
    for (const kept of [
      '<h2>标题</h2>',
      '<strong>粗</strong>',
      '<em>斜</em>',
      '<u>下划线</u>',
      '<s>删除</s>',
    ]) {
      expect(content).toContain(kept);
    }
    expect(content).toContain('<ul><li>一</li></ul><ol><li>二</li></ol><blockquote>引用</blockquote>');
    expect(content).toContain('<img src="/api/sysFile/preview/123" alt="图" />');
    expect(content).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">好链接</a>',
    );
    expect(content).toContain('<a rel="noopener noreferrer">坏链接</a>');
    for (const gone of [
      'script',
      'alert',
      'style',
      'iframe',
      'onclick',
      'onerror',
      'javascript:',
      'data:',
      'evil',
      '..',
    ]) {
      expect(content).not.toContain(gone);
    }
    await ok(admin, 'POST', '/api/sysNotice/update', { id, content: '<p>新<script>x()</script></p>' });
    expect((await detail(admin, id)).content).toBe('<p>新</p>');
  });
});

describe('audience', () => {
  it('orgs: each org with its subtree and extra orgs; disabled and deleted users left out', async () => {
    const street = await orgId('南京东路街道');
    const db = t.app.ctx.db;
    await db.updateTable('sys_user').set({ status: 2 }).where('account', '=', 'gzlstaff').execute();
    await db.updateTable('sys_user').set({ is_delete: 1 }).where('account', '=', 'njdlstaff').execute();
    try {
      const id = await add(admin, { audience: 2, audienceIds: [street] });
      await publish(admin, id);
      expect(await recipientsOf(id)).toEqual(['gridstaff', 'gzlleader', 'njdleader', 'qyfiller']);
      const row = await detail(admin, id);
      expect(row).toMatchObject({
        status: 1,
        audienceNames: ['南京东路街道'],
        recipientCount: 4,
        readCount: 0,
      });
      expect(row.publicUserName).toBe('系统管理员');
    } finally {
      await db.updateTable('sys_user').set({ status: 1 }).where('account', '=', 'gzlstaff').execute();
      await db.updateTable('sys_user').set({ is_delete: 0 }).where('account', '=', 'njdlstaff').execute();
    }
  });

  it('roles, users and everyone', async () => {
    const db = t.app.ctx.db;
    const staffRole = await roleId('staff');
    const holders = await db
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select('u.account')
      .where('ur.role_id', '=', staffRole)
      .where('u.is_delete', '=', 0)
      .where('u.status', '=', 1)
      .execute();
    const byRole = await add(admin, { audience: 3, audienceIds: [staffRole] });
    await publish(admin, byRole);
    expect(await recipientsOf(byRole)).toEqual(holders.map((h) => h.account).sort());
    expect(holders.length).toBeGreaterThan(1);

    const byUser = await add(admin, {
      audience: 4,
      audienceIds: [users.mzjchief as number, users.fgwstaff as number],
    });
    await publish(admin, byUser);
    expect(await recipientsOf(byUser)).toEqual(['fgwstaff', 'mzjchief']);
    expect((await detail(admin, byUser)).audienceNames).toEqual(['黄丽', '张伟']);

    const tenantId = (
      await db
        .selectFrom('sys_user')
        .select('tenant_id')
        .where('account', '=', 'admin')
        .executeTakeFirstOrThrow()
    ).tenant_id;
    const everyone = await db
      .selectFrom('sys_user')
      .select('account')
      .where('tenant_id', '=', tenantId)
      .where('is_delete', '=', 0)
      .where('status', '=', 1)
      .execute();
    const all = await add(admin);
    await publish(admin, all);
    expect(await recipientsOf(all)).toEqual(everyone.map((u) => u.account).sort());
  });

  it('writes the inbox of a large audience set-based, in batches, with unique ids', async () => {
    const db = t.app.ctx.db;
    const template = await db
      .selectFrom('sys_user')
      .selectAll()
      .where('account', '=', 'fgwstaff')
      .executeTakeFirstOrThrow();
    const org = await orgId('区发展和改革委员会');
    const many = 12_345;
    const firstId = t.app.ctx.newId() + 10_000_000;
    for (let start = 0; start < many; start += 500) {
      const rows = [];
      for (let i = start; i < Math.min(many, start + 500); i++) {
        rows.push({
          ...template,
          id: firstId + i,
          account: `bulk${i}`,
          phone: null,
          email: null,
          id_card_num: null,
        });
      }
      await db.insertInto('sys_user').values(rows).execute();
    }
    try {
      const id = await add(admin, { audience: 2, audienceIds: [org] });
      await publish(admin, id);
      const stats = await db
        .selectFrom('sys_notice_user')
        .select((eb) => [
          eb.fn.countAll().as('rows'),
          eb.fn.count('id').distinct().as('ids'),
          eb.fn.count('user_id').distinct().as('users'),
        ])
        .where('notice_id', '=', id)
        .executeTakeFirstOrThrow();
      const expected = many + (await recipientsOf(id)).filter((a) => !a.startsWith('bulk')).length;
      expect(Number(stats.rows)).toBe(expected);
      expect(Number(stats.ids)).toBe(expected);
      expect(Number(stats.users)).toBe(expected);
      expect((await detail(admin, id)).recipientCount).toBe(expected);
    } finally {
      await db
        .deleteFrom('sys_user')
        .where('id', '>=', firstId)
        .where('id', '<', firstId + many)
        .execute();
    }
  });
});

describe('states', () => {
  it('draft → published → withdrawn → edited → published again; edits and deletes only when not published', async () => {
    const id = await add(admin, { audience: 4, audienceIds: [users.fgwstaff as number] });
    expect((await detail(admin, id)).status).toBe(0);
    expect(await code(admin, 'POST', '/api/sysNotice/withdraw', { id })).toBe('D7001');
    await publish(admin, id);
    expect(await code(admin, 'POST', '/api/sysNotice/public', { id })).toBe('D7004');
    expect(await code(admin, 'POST', '/api/sysNotice/update', { id, title: '改' })).toBe('D7000');
    expect(await code(admin, 'POST', '/api/sysNotice/delete', { id })).toBe('D7000');
    expect(await code(admin, 'POST', '/api/sysNotice/batchDelete', { ids: [id] })).toBe('D7000');

    const reader = await tokenOf('fgwstaff');
    await ok(reader, 'GET', `/api/sysNotice/received?id=${id}`);
    await ok(admin, 'POST', '/api/sysNotice/withdraw', { id });
    const withdrawn = await detail(admin, id);
    expect(withdrawn.status).toBe(2);
    expect(withdrawn.cancelTime).not.toBeNull();
    expect(await code(reader, 'GET', `/api/sysNotice/received?id=${id}`)).toBe('D1002');
    const inbox = await ok<PageResult<ReceivedNotice>>(
      reader,
      'GET',
      '/api/sysNotice/pageReceived?pageSize=100',
    );
    expect(inbox.items.map((n) => n.id)).not.toContain(id);

    await ok(admin, 'POST', '/api/sysNotice/update', { id, title: '更正后的通知' });
    await publish(admin, id);
    const again = await ok<ReceivedNoticeDetail>(reader, 'GET', `/api/sysNotice/received?id=${id}`);
    expect(again.title).toBe('更正后的通知');
    expect((await detail(admin, id)).recipientCount).toBe(1);

    const draft = await add(admin);
    await ok(admin, 'POST', '/api/sysNotice/delete', { id: draft });
    expect(await code(admin, 'GET', `/api/sysNotice/detail?Id=${draft}`)).toBe('D1002');
  });

  it('schedules, and publishDueNotices publishes once when its time has come, even from two callers', async () => {
    const inAMinute = formatDateTime(new Date(Date.now() + 60_000));
    const id = await add(admin, { audience: 4, audienceIds: [users.mzjchief as number] });
    await ok(admin, 'POST', '/api/sysNotice/public', { id, publishAt: inAMinute });
    const scheduled = await detail(admin, id);
    expect(scheduled).toMatchObject({ status: 3, publishAt: inAMinute, publicTime: null, recipientCount: 0 });
    // Still editable while it waits.
    await ok(admin, 'POST', '/api/sysNotice/update', { id, title: '定时通知' });
    expect(await publishDueNotices(t.app.ctx)).toBe(0);

    const later = new Date(Date.now() + 120_000);
    const counts = await Promise.all([
      publishDueNotices(t.app.ctx, later),
      publishDueNotices(t.app.ctx, later),
    ]);
    expect(counts[0] + counts[1]).toBe(1);
    const published = await detail(admin, id);
    expect(published).toMatchObject({ status: 1, title: '定时通知', recipientCount: 1 });
    expect(published.publicUserName).toBe('系统管理员');
    expect(await recipientsOf(id)).toEqual(['mzjchief']);
    expect(await publishDueNotices(t.app.ctx, later)).toBe(0);

    // A scheduled notice can be withdrawn before its time; it is then never published.
    const other = await add(admin);
    await ok(admin, 'POST', '/api/sysNotice/public', { id: other, publishAt: inAMinute });
    await ok(admin, 'POST', '/api/sysNotice/withdraw', { id: other });
    expect(await publishDueNotices(t.app.ctx, later)).toBe(0);
    expect((await detail(admin, other)).status).toBe(2);
  });
});

describe('scope and tenants', () => {
  it('offers the editor recipients of their own scope and the tenant’s roles, without user-admin buttons', async () => {
    const found = await ok<{ id: number; account: string }[]>(
      njd,
      'GET',
      '/api/sysNotice/audienceUsers?keyword=staff',
    );
    const accounts = found.map((u) => u.account);
    expect(accounts).toContain('njdlstaff');
    expect(accounts).not.toContain('fgwstaff');
    expect(await ok<unknown[]>(njd, 'GET', `/api/sysNotice/audienceUsers?ids=${users.fgwstaff}`)).toEqual([]);
    expect(
      (await ok<{ id: number }[]>(admin, 'GET', `/api/sysNotice/audienceUsers?ids=${users.fgwstaff}`)).map(
        (u) => u.id,
      ),
    ).toEqual([users.fgwstaff]);
    const roles = await ok<{ code: string }[]>(njd, 'GET', '/api/sysNotice/audienceRoles');
    expect(roles.map((r) => r.code)).toContain('staff');
    expect(await code(staff, 'GET', '/api/sysNotice/audienceUsers?keyword=a')).toBe(403);
    expect(await code(njd, 'GET', '/api/sysNotice/audienceUsers?ids=1;drop')).toBe(400);
  });

  it('a leader sees and manages only notices of their data scope', async () => {
    const own = await add(njd, {
      title: '街道通知',
      audience: 2,
      audienceIds: [await orgId('南京东路街道')],
    });
    const theirs = await ok<PageResult<NoticeRow>>(njd, 'POST', '/api/sysNotice/page', { title: '街道通知' });
    expect(theirs.items.map((n) => n.id)).toEqual([own]);
    expect(
      (await ok<PageResult<NoticeRow>>(fgw, 'POST', '/api/sysNotice/page', { title: '街道通知' })).total,
    ).toBe(0);
    expect(await code(fgw, 'GET', `/api/sysNotice/detail?Id=${own}`)).toBe('D1002');
    expect(await code(fgw, 'POST', '/api/sysNotice/update', { id: own, title: 'x' })).toBe('D1002');
    expect(await code(fgw, 'POST', '/api/sysNotice/public', { id: own })).toBe('D1002');
    expect(await code(fgw, 'POST', '/api/sysNotice/delete', { id: own })).toBe('D1002');
    const listed = await ok<NoticeListRow[]>(admin, 'GET', '/api/sysNotice/list?title=街道通知');
    expect(listed.map((n) => n.id)).toEqual([own]);
    await ok(njd, 'POST', '/api/sysNotice/public', { id: own });
    expect(await code(fgw, 'POST', '/api/sysNotice/withdraw', { id: own })).toBe('D1002');
    await ok(njd, 'POST', '/api/sysNotice/withdraw', { id: own });
  });

  it('another tenant sees none of these notices and cannot address this tenant’s people', async () => {
    const root = (await login(t.app, 'superadmin')).accessToken;
    await ok<number>(root, 'POST', '/api/sysTenant/add', {
      code: 'ntc',
      name: '通知测试租户',
      adminAccount: 'ntcadmin',
      remark: 'test',
    });
    const other = (await login(t.app, 'ntcadmin')).accessToken;
    const ours = await add(admin, { title: '本租户通知' });
    expect((await ok<PageResult<NoticeRow>>(other, 'POST', '/api/sysNotice/page', {})).total).toBe(0);
    expect(await code(other, 'GET', `/api/sysNotice/detail?Id=${ours}`)).toBe('D1002');
    expect(await code(other, 'POST', '/api/sysNotice/public', { id: ours })).toBe('D1002');
    expect(
      await code(other, 'POST', '/api/sysNotice/add', {
        title: 'x',
        content: 'x',
        audience: 4,
        audienceIds: [users.fgwstaff],
      }),
    ).toBe('D1002');
    expect(
      await code(other, 'POST', '/api/sysNotice/add', {
        title: 'x',
        content: 'x',
        audience: 2,
        audienceIds: [await orgId('南京东路街道')],
      }),
    ).toBe('D1002');
    // Their notice to everyone reaches only their tenant.
    const theirs = await add(other, { title: '外租户通知' });
    await publish(other, theirs);
    expect(await recipientsOf(theirs)).toEqual(['ntcadmin']);
    const inbox = await ok<PageResult<ReceivedNotice>>(
      admin,
      'GET',
      '/api/sysNotice/pageReceived?pageSize=100&title=外租户',
    );
    expect(inbox.total).toBe(0);
    expect(await code(admin, 'GET', `/api/sysNotice/received?id=${theirs}`)).toBe('D1002');
  });
});

describe('inbox', () => {
  it('counts unread, lists newest first with filters, opens and marks read', async () => {
    const reader = await tokenOf('gzlleader');
    await ok(reader, 'POST', '/api/sysNotice/setAllRead');
    expect((await ok<UnreadList>(reader, 'GET', '/api/sysNotice/unReadSummary')).count).toBe(0);

    const ids: number[] = [];
    for (const [i, type] of [1, 2, 1].entries()) {
      const id = await add(admin, {
        title: `收件箱${i}`,
        type,
        audience: 4,
        audienceIds: [users.gzlleader as number],
      });
      await publish(admin, id);
      ids.push(id);
    }
    const unread = await ok<UnreadList>(reader, 'GET', '/api/sysNotice/unReadSummary');
    expect(unread.count).toBe(3);
    expect(unread.items.map((n) => n.id)).toEqual([...ids].reverse());
    expect(unread.items[0]).toMatchObject({ title: '收件箱2', readStatus: 0, publicUserName: '系统管理员' });

    const page = async (query: string) =>
      ok<PageResult<ReceivedNotice>>(reader, 'GET', `/api/sysNotice/pageReceived?pageSize=2&${query}`);
    const first = await page('title=收件箱');
    expect(first).toMatchObject({ total: 3, totalPages: 2 });
    expect(first.items.map((n) => n.id)).toEqual([ids[2], ids[1]]);
    expect((await page('title=收件箱&page=2')).items.map((n) => n.id)).toEqual([ids[0]]);
    expect((await page('title=收件箱&type=2')).items.map((n) => n.id)).toEqual([ids[1]]);

    const opened = await ok<ReceivedNoticeDetail>(reader, 'GET', `/api/sysNotice/received?id=${ids[0]}`);
    expect(opened).toMatchObject({ id: ids[0], readStatus: 1, content: '<p>正文</p>' });
    expect(opened.readTime).not.toBeNull();
    await ok(reader, 'POST', '/api/sysNotice/setRead', { id: ids[1] });
    await ok(reader, 'POST', '/api/sysNotice/setRead', { id: ids[1] });
    expect((await page('title=收件箱&readStatus=0')).items.map((n) => n.id)).toEqual([ids[2]]);
    expect((await page('title=收件箱&readStatus=1')).total).toBe(2);
    expect((await detail(admin, ids[0] as number)).readCount).toBe(1);

    // Someone else's notice is not theirs to read.
    const foreign = await add(admin, { audience: 4, audienceIds: [users.fgwstaff as number] });
    await publish(admin, foreign);
    expect(await code(reader, 'POST', '/api/sysNotice/setRead', { id: foreign })).toBe('D1002');
    expect(await code(reader, 'GET', `/api/sysNotice/received?id=${foreign}`)).toBe('D1002');

    await ok(reader, 'POST', '/api/sysNotice/setAllRead');
    expect(await ok<UnreadList>(reader, 'GET', '/api/sysNotice/unReadSummary')).toEqual({
      count: 0,
      items: [],
    });
  });
});

describe('realtime', () => {
  it('pushes notice to the recipients only, and noticeWithdrawn when it is withdrawn', async () => {
    const recipient = await open(await tokenOf('tjjdirector'));
    const bystander = await open(await tokenOf('mzjchief'));
    const seen: string[] = [];
    bystander.onAny((event: string) => seen.push(event));

    const id = await add(admin, {
      title: '实时通知',
      type: 2,
      audience: 4,
      audienceIds: [users.tjjdirector as number],
    });
    const arrived = next<NoticeEventPayload>(recipient, REALTIME_EVENTS.notice);
    await publish(admin, id);
    const payload = await arrived;
    expect(payload).toMatchObject({ id, title: '实时通知', type: 2, publicUserName: '系统管理员' });
    expect(payload.publicTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const gone = next<{ id: number }>(recipient, REALTIME_EVENTS.noticeWithdrawn);
    await ok(admin, 'POST', '/api/sysNotice/withdraw', { id });
    expect(await gone).toEqual({ id });

    // A notice to everyone reaches both; events on one socket keep their order, so had the bystander been
    // sent the earlier ones, they would have come first.
    const everyone = await add(admin, { title: '全员通知' });
    const both = [
      next<NoticeEventPayload>(recipient, 'notice'),
      next<NoticeEventPayload>(bystander, 'notice'),
    ];
    await publish(admin, everyone);
    expect((await Promise.all(both)).map((p) => p.id)).toEqual([everyone, everyone]);
    expect(seen).toEqual([REALTIME_EVENTS.notice]);
  });
});

describe('export', () => {
  it('exports the notices as xlsx', async () => {
    const response = await authed(t.app, admin, {
      method: 'POST',
      url: '/api/sysNotice/export',
      payload: {},
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
  });
});
