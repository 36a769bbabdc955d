import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { UserPageItem } from '@shuzhi/contracts/user';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/platform/auth/password-hash.ts';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import { searchTableName } from '../src/platform/diy/text-search.ts';
import {
  apiCalls,
  authed,
  body,
  createTestApp,
  encrypt,
  login,
  TEST_HASH_COST,
  type TestApp,
} from './helpers.ts';
import { multipart } from './upload.fixture.ts';

/**
 * Issue 18: the text-search index (FTS5 trigram on SQLite, pg_trgm on PostgreSQL). Each search of the record
 * list (keyword, `contains`) and of the users page is compared with the plain LIKE / ILIKE on the same data —
 * results, totals, sorting and paging, data scope, deleted rows — including one- and two-character queries,
 * LIKE's special characters, case, NUL and long texts; then the index is followed through each write path.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let staff: string;
let formId: number;
const pg = Boolean(process.env.TEST_DATABASE_URL);
const OP = 'Search#2026';

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '单位名称', required: true },
    { id: 'memo', type: 'textarea', label: '备注' },
    { id: 'mobile', type: 'mobile', label: '手机' },
    { id: 'staff', type: 'integer', label: '人数' },
    {
      id: 'kind',
      type: 'select',
      label: '门类',
      options: {
        source: 'options',
        items: [
          { value: 'ind', label: '工业' },
          { value: 'svc', label: '服务业' },
        ],
      },
    },
    {
      id: 'tags',
      type: 'multiSelect',
      label: '标签',
      options: {
        source: 'options',
        items: [
          { value: 'Hi', label: '高新' },
          { value: 'fx', label: '外资' },
        ],
      },
    },
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
  numbering: { prefix: 'SX-', datePart: 'none', digits: 4 },
};

const NAMES = [
  '上海华兴盛达有限公司',
  '华兴',
  '华',
  'ABC Trading',
  'abc trading co',
  'Ünïcode Straße',
  '100% 完成',
  'a_b_c',
  'back\\slash',
  'quote "x" here',
  '表情😀测试',
  '兴盛华兴盛达',
  'aBC',
  '%_%',
];
const QUERIES = [
  '华',
  '兴',
  '华兴',
  '华兴盛',
  '兴盛达',
  'abc',
  'ABC',
  'aBc tr',
  '%',
  '100%',
  '_',
  'a_b',
  '\\',
  'back\\s',
  '"x"',
  '😀',
  '😀测',
  'straße',
  'STRASSE',
  'ü',
  'Ü',
  '有限公司',
  'SX-0',
  'ind',
  'Hi"',
  '138',
  'zzz',
  ' ',
  '华兴盛达'.repeat(30),
];

type Page = PageResult<DiyRecord>;
const recordPage = (token: string, input: Record<string, unknown>, id = formId) =>
  api.ok<Page>(token, 'POST', `/api/diyData/${id}/page`, { page: 1, pageSize: 1000, ...input });

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The plain LIKE (ILIKE) over `columns`, live rows of the tenant, with the page's order and window. */
async function likeIds(
  columns: string[],
  text: string,
  window: { order?: string; limit?: number; offset?: number } = {},
  id = formId,
): Promise<number[]> {
  const op = sql.raw(pg ? 'ilike' : 'like');
  const pattern = escapeLike(text);
  const ors = sql.join(
    columns.map((c) => sql`${sql.id(c)} ${op} ${pattern} escape '\\'`),
    sql` or `,
  );
  const order = window.order ? sql`${sql.id(window.order)} asc, id desc` : sql`id desc`;
  const { rows } = await sql<{ id: number | string }>`select id from ${sql.id(dataTableName(id))}
    where is_delete = 0 and (${ors}) order by ${order}
    limit ${window.limit ?? 100000} offset ${window.offset ?? 0}`.execute(t.app.ctx.db);
  return rows.map((r) => Number(r.id));
}

async function textColumns(id = formId): Promise<string[]> {
  const rows = await t.app.ctx.db
    .selectFrom('diy_table_column')
    .select('column_name')
    .where('table_id', '=', id)
    .where('storage_kind', 'in', ['text', 'json'])
    .orderBy('id')
    .execute();
  return ['data_no', ...rows.map((r) => r.column_name)];
}

/** The ids of the form's FTS5 table that hold `text` (SQLite), straight from the index. */
async function indexed(text: string, id = formId): Promise<number[]> {
  const fts = sql.id(searchTableName(id));
  const { rows } = await sql<{
    rowid: number;
  }>`select rowid from ${fts} where ${fts} match ${`"${text}"`}`.execute(t.app.ctx.db);
  return rows.map((r) => Number(r.rowid)).sort();
}

const add = (token: string, values: Record<string, unknown>) =>
  api.ok<number>(token, 'POST', `/api/diyData/${formId}/add`, { values, submit: true });

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '检索测试表',
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
  for (const [i, name] of NAMES.entries()) {
    const values = {
      name,
      memo: i % 3 === 0 ? `备注${NAMES[(i + 5) % NAMES.length]}` : null,
      mobile: `1380000${String(1000 + i)}`,
      staff: i,
      kind: i % 2 === 0 ? 'ind' : 'svc',
      tags: i % 4 === 0 ? ['Hi', 'fx'] : ['fx'],
    };
    await add(i % 2 === 0 ? staff : admin, values);
  }
  // Deleted rows stay in the index; the list never shows them.
  const some = await recordPage(admin, { keyword: '华兴' });
  await api.ok(admin, 'DELETE', `/api/diyData/${formId}/delete`, { id: some.items[0]?.id });
});

afterAll(async () => {
  await t?.close();
});

describe('record search: the index answers as the plain LIKE does', () => {
  it('keyword and contains, every query, as the admin and as a scoped filler', async () => {
    const all = await textColumns();
    const staffSees = new Set((await recordPage(staff, {})).items.map((r) => r.id));
    expect(staffSees.size).toBeGreaterThan(0);
    expect(staffSees.size).toBeLessThan(NAMES.length);
    let matched = 0;
    for (const q of QUERIES) {
      const keyword = q.length <= 128 ? await likeIds(all, q.trim()) : null;
      if (keyword && q.trim() !== '') {
        const page = await recordPage(admin, { keyword: q });
        expect(
          page.items.map((r) => r.id),
          `keyword ${q}`,
        ).toEqual(keyword);
        expect(page.total, `keyword ${q}`).toBe(keyword.length);
        const scoped = await recordPage(staff, { keyword: q });
        expect(
          scoped.items.map((r) => r.id),
          `staff keyword ${q}`,
        ).toEqual(keyword.filter((id) => staffSees.has(id)));
        matched += keyword.length;
      }
      for (const field of ['name', 'memo', 'tags']) {
        const expected = await likeIds([`f_${field}`], q);
        const page = await recordPage(admin, { filters: [{ field, op: 'contains', value: q }] });
        expect(
          page.items.map((r) => r.id),
          `contains ${field} ${q}`,
        ).toEqual(expected);
        expect(page.total).toBe(expected.length);
      }
    }
    // The queries do find things: the comparison is not between two empty lists.
    expect(matched).toBeGreaterThan(40);
  });

  it('sorts and pages a search as the plain LIKE does', async () => {
    for (const q of ['华兴', 'abc', 'a', '华兴盛']) {
      for (const pageNo of [1, 2]) {
        const page = await api.ok<Page>(admin, 'POST', `/api/diyData/${formId}/page`, {
          keyword: q,
          page: pageNo,
          pageSize: 2,
          field: 'name',
          order: 'ascending',
        });
        const expected = await likeIds(await textColumns(), q, {
          order: 'f_name',
          limit: 2,
          offset: (pageNo - 1) * 2,
        });
        expect(
          page.items.map((r) => r.id),
          `${q} page ${pageNo}`,
        ).toEqual(expected);
        expect(page.total).toBe((await likeIds(await textColumns(), q)).length);
      }
    }
  });

  it('refuses a NUL character as bad input (no 500); answers a long contains text', async () => {
    const refused = await api.envelope(admin, 'POST', `/api/diyData/${formId}/page`, {
      keyword: '华\u0000兴',
    });
    expect(refused.code).toBe(400);
    const filter = { filters: [{ field: 'name', op: 'contains', value: 'a\u0000' }] };
    expect((await api.envelope(admin, 'POST', `/api/diyData/${formId}/page`, filter)).code).toBe(400);
    const long = '华兴'.repeat(3000);
    expect(
      (await recordPage(admin, { filters: [{ field: 'name', op: 'contains', value: long }] })).total,
    ).toBe(0);
    const longName = `${'长'.repeat(100)}华兴盛`;
    const id = await add(admin, { name: longName });
    const hit = await recordPage(admin, {
      filters: [{ field: 'name', op: 'contains', value: longName.slice(20) }],
    });
    expect(hit.items.map((r) => r.id)).toEqual([id]);
  });

  it.skipIf(!pg)('has a GIN trigram index on each searchable column (PostgreSQL)', async () => {
    const { rows } = await sql<{ indexname: string }>`select indexname from pg_indexes
      where tablename = ${dataTableName(formId)} and indexdef like '%gin_trgm_ops%'`.execute(t.app.ctx.db);
    expect(rows.map((r) => r.indexname).sort()).toEqual(
      (await textColumns()).map((c) => `tg_${dataTableName(formId)}_${c}`).sort(),
    );
  });
});

describe('the index follows every write', () => {
  const found = async (q: string) => (await recordPage(admin, { keyword: q })).items.map((r) => r.id);

  it('add, update, delete, restore and purge', async () => {
    const id = await add(admin, { name: '维护甲乙丙' });
    expect(await found('甲乙丙')).toEqual([id]);
    await api.ok(admin, 'PUT', `/api/diyData/${formId}/update`, { id, values: { name: '维护丁戊己' } });
    expect(await found('甲乙丙')).toEqual([]);
    expect(await found('丁戊己')).toEqual([id]);
    if (!pg) {
      expect(await indexed('甲乙丙')).toEqual([]);
      expect(await indexed('丁戊己')).toEqual([id]);
    }
    await api.ok(admin, 'DELETE', `/api/diyData/${formId}/delete`, { id });
    expect(await found('丁戊己')).toEqual([]);
    const item = { kind: 'record', id, tableId: formId };
    expect(await api.code(admin, 'POST', '/api/diyRecycle/restore', { items: [item] })).toBe(200);
    expect(await found('丁戊己')).toEqual([id]);
    await api.ok(admin, 'DELETE', `/api/diyData/${formId}/delete`, { id });
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ op_password: await hashPassword(OP, TEST_HASH_COST) })
      .where('account', '=', 'admin')
      .execute();
    const purged = await api.code(admin, 'POST', '/api/diyRecycle/purge', {
      items: [item],
      opPassword: encrypt(t.app, OP),
    });
    expect(purged).toBe(200);
    if (!pg) expect(await indexed('丁戊己')).toEqual([]);
  });

  it('an import', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('数据');
    sheet.addRow(['单位名称', '备注', '手机', '人数', '门类', '标签', '编号']);
    sheet.addRow(['导入庚辛壬', '导入的备注', null, 3, '工业', null, null]);
    const { payload, headers } = multipart('data.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    const env = body<{ jobId: number }>(
      await authed(t.app, admin, {
        method: 'POST',
        url: `/api/diyImport/${formId}/upload`,
        payload,
        headers,
      }),
    );
    expect(env.code, JSON.stringify(env)).toBe(200);
    const jobId = (env.result as { jobId: number }).jobId;
    const settle = async () => {
      for (let i = 0; i < 400; i++) {
        const job = await api.ok<{ state: string }>(admin, 'GET', `/api/diyImport/job/${jobId}`);
        if (job.state !== 'checking' && job.state !== 'importing') return job;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('job did not settle');
    };
    expect((await settle()).state).toBe('checked');
    await api.ok(admin, 'POST', `/api/diyImport/job/${jobId}/confirm`, {});
    expect((await settle()).state).toBe('done');
    const ids = await found('庚辛壬');
    expect(ids).toHaveLength(1);
    if (!pg) expect(await indexed('庚辛壬')).toEqual(ids);
  });

  it('a publish with a new text field and a renamed field: older records still found, the new field searchable', async () => {
    const before = await found('华兴盛');
    expect(before.length).toBeGreaterThan(0);
    const fields = [
      ...DESIGN.fields.map((f) => (f.id === 'name' ? { ...f, label: '企业名称' } : f)),
      { id: 'addr', type: 'text', label: '地址' },
    ];
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id: formId,
      design: { ...DESIGN, fields },
      publish: true,
    });
    expect(await found('华兴盛')).toEqual(before);
    const id = await add(admin, { name: '新字段单位', addr: '癸子丑路' });
    expect(await found('癸子丑')).toEqual([id]);
    const page = await recordPage(admin, { filters: [{ field: 'addr', op: 'contains', value: '子丑路' }] });
    expect(page.items.map((r) => r.id)).toEqual([id]);
    if (!pg) {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${searchTableName(
        formId,
      )})`.execute(t.app.ctx.db);
      expect(rows.map((r) => r.name)).toEqual(await textColumns());
      // The index also holds the deleted rows (the list's own condition leaves them out).
      expect(await indexed('华兴盛')).toEqual(expect.arrayContaining(before));
    }
  });

  it('a purged form takes its index with it', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '将清除的表',
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', { id, design: DESIGN, publish: true });
    await api.ok(admin, 'DELETE', `/api/diyTable/delete`, { id });
    const code = await api.code(admin, 'POST', '/api/diyRecycle/purge', {
      items: [{ kind: 'form', id, tableId: id }],
      opPassword: encrypt(t.app, OP),
    });
    expect(code).toBe(200);
    if (!pg) {
      const { rows } = await sql<{ name: string }>`select name from sqlite_master
        where name = ${searchTableName(id)} or name like ${`tg_diy_data_${id}_%`}`.execute(t.app.ctx.db);
      expect(rows).toEqual([]);
    }
  });
});

describe('user search', () => {
  const users = (input: Record<string, unknown>) =>
    api.ok<PageResult<UserPageItem>>(admin, 'POST', '/api/sysUser/page', { pageSize: 500, ...input });

  async function likeUsers(text: string): Promise<number[]> {
    const op = sql.raw(pg ? 'ilike' : 'like');
    const pattern = escapeLike(text);
    const tenant = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('tenant_id')
      .where('account', '=', 'admin')
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{ id: number | string }>`select id from sys_user where is_delete = 0
      and tenant_id = ${tenant.tenant_id} and account_type != 999
      and (account ${op} ${pattern} escape '\\' or real_name ${op} ${pattern} escape '\\' or phone ${op} ${pattern} escape '\\')
      order by id desc`.execute(t.app.ctx.db);
    return rows.map((r) => Number(r.id));
  }

  it('answers as the plain LIKE does, and follows adds and updates', async () => {
    const org = await t.app.ctx.db
      .selectFrom('sys_org')
      .select('id')
      .where('code', '=', 'HPQ-FGW')
      .executeTakeFirstOrThrow();
    const id = await api.ok<number>(admin, 'POST', '/api/sysUser/add', {
      account: 'Search_User1',
      realName: '检索用户甲',
      phone: '13912345678',
      orgId: org.id,
    });
    for (const q of [
      'staff',
      'STAFF',
      'lead',
      'se',
      's',
      '张',
      '张伟',
      'search_u',
      'h_u',
      '%',
      '_',
      '139123',
      '甲',
    ]) {
      const page = await users({ keyword: q });
      const expected = await likeUsers(q);
      expect(
        page.items.map((u) => u.id),
        q,
      ).toEqual(expected);
      expect(page.total).toBe(expected.length);
    }
    expect((await users({ keyword: '检索用户甲' })).items.map((u) => u.id)).toEqual([id]);
    await api.ok(admin, 'PUT', '/api/sysUser/update', { id, realName: '改名用户乙' });
    expect((await users({ keyword: '检索用户甲' })).total).toBe(0);
    expect((await users({ keyword: '改名用户乙' })).items.map((u) => u.id)).toEqual([id]);
    const nul = await api.envelope(admin, 'POST', '/api/sysUser/page', { keyword: 'a\u0000b' });
    expect(nul.code).toBe(400);
  });
});
