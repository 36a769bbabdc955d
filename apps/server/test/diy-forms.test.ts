import type { FormDesignForFilling, FormDesignResult, FormItem } from '@shuzhi/contracts/diy-table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, createTestApp, encrypt, login, type TestApp } from './helpers.ts';

/**
 * Issue 5, the server foundation of report forms: form administration, designs and versions with the
 * per-form data table, and the form password.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let qy: string;
let fgw: string;
let orgs: Record<string, number>;

const ALL_FILL = { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true };

const baseDesign = {
  fields: [
    { id: 'name', type: 'text', label: '企业名称', required: true, unique: 'form', maxLength: 20 },
    { id: 'qty', type: 'integer', label: '数量', min: 0, max: 100 },
    { id: 'price', type: 'decimal', label: '单价', precision: 2 },
    { id: 'total', type: 'formula', label: '金额', formula: '{qty} * {price}' },
    { id: 'memo', type: 'textarea', label: '备注' },
  ],
};

async function columnsOf(tableId: number) {
  return t.app.ctx.db
    .selectFrom('diy_table_column')
    .select(['field_id', 'column_name', 'storage_kind', 'created_version'])
    .where('table_id', '=', tableId)
    .orderBy('created_version')
    .orderBy('column_name')
    .execute();
}

async function physicalColumns(tableId: number): Promise<string[]> {
  const tables = await t.app.ctx.db.introspection.getTables();
  const table = tables.find((x) => x.name === `diy_data_${tableId}`);
  return (table?.columns ?? []).map((c) => c.name).sort();
}

async function newForm(extra: Record<string, unknown> = {}): Promise<number> {
  return api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '企业情况调查',
    fillers: ALL_FILL,
    ...extra,
  });
}

async function publish(id: number, design: unknown) {
  return api.ok<{ revision: number; version: number }>(admin, 'PUT', '/api/diyTable/design', {
    id,
    design,
    publish: true,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  // The report-form pages are not switched on yet: the test tenant gets their buttons.
  await t.app.ctx.db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  qy = (await login(t.app, 'qyfiller')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  const rows = await t.app.ctx.db.selectFrom('sys_org').select(['id', 'code']).execute();
  orgs = Object.fromEntries(rows.map((r) => [r.code, r.id]));
});

afterAll(async () => {
  await t?.close();
});

describe('form administration', () => {
  it('adds, lists, updates and deletes forms, refusing bad references', async () => {
    const id = await newForm({ remark: '年度调查' });
    const page = await api.ok<{ items: { id: number; title: string }[] }>(
      admin,
      'POST',
      '/api/diyTable/page',
      {
        title: '企业情况',
      },
    );
    expect(page.items.map((i) => i.id)).toContain(id);
    const detail = await api.ok<{ version: number; hasDraft: boolean; isShowPwd: boolean }>(
      admin,
      'GET',
      `/api/diyTable/detail?id=${id}`,
    );
    expect(detail).toMatchObject({ version: 0, isShowPwd: false });
    await api.ok(admin, 'POST', '/api/diyTable/update', { id, title: '企业情况调查（修订）' });
    const updated = await api.ok<{ title: string; fillers: unknown; remark: string }>(
      admin,
      'GET',
      `/api/diyTable/detail?Id=${id}`,
    );
    // Settings left out of an update keep their values.
    expect(updated).toMatchObject({ title: '企业情况调查（修订）', fillers: ALL_FILL, remark: '年度调查' });
    expect(await api.code(admin, 'POST', '/api/diyTable/add', { title: '' })).toBe(400);
    expect(await api.code(admin, 'POST', '/api/diyTable/add', { title: 'x', categoryId: 123 })).toBe('F1010');
    expect(
      await api.code(admin, 'POST', '/api/diyTable/add', {
        title: 'x',
        fillers: { ...ALL_FILL, orgIds: [99999] },
      }),
    ).toBe('D1002');
    expect(await api.code(admin, 'POST', '/api/diyTable/update', { id: 424242, title: 'x' })).toBe('F1000');
    expect(await api.code(admin, 'GET', '/api/diyTable/detail')).toBe(400);
    await api.ok(admin, 'DELETE', `/api/diyTable/${id}`);
    expect(await api.code(admin, 'GET', `/api/diyTable/detail?id=${id}`)).toBe('F1000');
    const row = await t.app.ctx.db
      .selectFrom('diy_table')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_delete: 1, delete_user_name: '系统管理员' });
  });

  it('keeps forms away from users without the permission and from other scopes', async () => {
    const id = await newForm();
    expect(await api.code(gzl, 'GET', `/api/diyTable/${id}`)).toBe(403);
    expect(await api.code(gzl, 'POST', '/api/diyTable/page', {})).toBe(403);
    // Logged-in routes answer clean errors: a form gzlstaff fills but not published yet, one that does not exist.
    expect(await api.code(gzl, 'GET', `/api/diyTable/column/select/${id}`)).toBe('F1001');
    expect(await api.code(gzl, 'GET', `/api/diyData/${id}/design`)).toBe('F1002');
    expect(await api.code(gzl, 'GET', '/api/diyTable/column/select/5')).toBe('F1000');
    expect(await api.code(gzl, 'GET', '/api/diyTable/select/x')).toBe(400);
    expect(await api.code(gzl, 'POST', '/api/diyTable/clearTip', { id: 5 })).toBe('F1000');
    expect(await api.code(gzl, 'POST', '/api/diyTable/clearTip', {})).toBe(400);
    expect(await api.code(gzl, 'GET', '/api/diyTable/select?DiyTableAffiliation=x')).toBe(400);
  });
});

describe('bad inputs', () => {
  it('answers every form route with a validation failure or a catalogue code, never a fault', async () => {
    const id = await newForm();
    const cases: [string, string, unknown, number | string][] = [
      ['POST', '/api/diyTable/page', { pageSize: 5000 }, 400],
      ['GET', '/api/diyTable/page?status=x', undefined, 400],
      ['GET', '/api/diyTable/list?categoryId=abc', undefined, 400],
      ['GET', '/api/diyTable/detail?id=0', undefined, 400],
      ['POST', '/api/diyTable/add', { title: 'x'.repeat(129) }, 400],
      ['POST', '/api/diyTable/add', { title: 'x', reportType: 7 }, 400],
      ['POST', '/api/diyTable/add', { title: 'x', fillers: { all: 'yes' } }, 400],
      ['POST', '/api/diyTable/add', { title: 'x', ownerOrgId: 123456 }, 'D1002'],
      ['POST', '/api/diyTable/add', { title: 'x', password: 'plain' }, 'D0010'],
      ['POST', '/api/diyTable/update', { title: 'x' }, 400],
      ['PUT', '/api/diyTable/update', { id, status: 5 }, 400],
      ['POST', '/api/diyTable/delete', {}, 400],
      ['DELETE', '/api/diyTable/delete?id=abc', undefined, 400],
      ['DELETE', '/api/diyTable/98765', undefined, 'F1000'],
      ['PUT', '/api/diyTable/design', { id, design: { fields: 'x' } }, 400],
      [
        'PUT',
        '/api/diyTable/design',
        { id, design: { fields: [{ id: 'a', type: 'nope', label: 'A' }] } },
        400,
      ],
      ['PUT', '/api/diyTable/design', { id, design: { fields: [] }, baseRevision: -1 }, 400],
      ['GET', '/api/diyTable/98765', undefined, 'F1000'],
      ['GET', '/api/diyTable/column/select/98765', undefined, 'F1000'],
      ['GET', '/api/diyTable/select/0', undefined, 400],
      ['GET', '/api/diyTable/tableList?classifyId=x', undefined, 400],
      ['POST', '/api/diyTable/clone', { id: 'x' }, 400],
      ['POST', '/api/diyTable/CheckFormPwd', { tableId: id }, 400],
      ['POST', '/api/diyTable/CheckFormPwd', { tableId: id, password: '' }, 400],
      ['GET', '/api/diyTable/pickOrgs?type=street', undefined, 400],
    ];
    for (const [method, url, payload, expected] of cases) {
      const env = await api.envelope(admin, method as 'GET', url, payload);
      expect(env.code, `${method} ${url} ${JSON.stringify(payload)}`).toBe(expected);
    }
  });
});

describe('designs and versions', () => {
  it('saves drafts, refuses bad designs with field errors and stale revisions', async () => {
    const id = await newForm();
    const empty = await api.ok<FormDesignResult>(admin, 'GET', `/api/diyTable/${id}`);
    expect(empty).toMatchObject({ revision: 0, published: null, versions: [] });
    expect(empty.draft.fields).toEqual([]);

    const bad = await api.envelope(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: {
        fields: [
          { id: 'a', type: 'text', label: 'A' },
          { id: 'a', type: 'text', label: 'A2' },
          { id: 'f', type: 'formula', label: 'F', formula: '{nope} + 1' },
          { id: 'k', type: 'select', label: 'K' },
        ],
      },
    });
    expect(bad.code).toBe(400);
    expect(Object.keys(bad.errors as Record<string, string[]>).sort()).toEqual(['a', 'f', 'k']);
    expect((bad.errors as Record<string, string[]>).a?.[0]).toBe('字段标识重复');

    const schemaBad = await api.envelope(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: { fields: [{ id: 'Bad Id', type: 'text', label: 'x' }] },
    });
    expect(schemaBad.code).toBe(400);

    const saved = await api.ok<{ revision: number; version: number }>(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: baseDesign,
      baseRevision: 0,
    });
    expect(saved).toEqual({ revision: 1, version: 0 });
    expect(
      await api.code(admin, 'PUT', '/api/diyTable/design', { id, design: baseDesign, baseRevision: 0 }),
    ).toBe('F1004');
    const result = await api.ok<FormDesignResult>(admin, 'GET', `/api/diyTable/${id}`);
    expect(result.draft.fields.map((f) => f.id)).toEqual(['name', 'qty', 'price', 'total', 'memo']);
    expect(result.form.hasDraft).toBe(true);
    // Nothing physical before the first publish.
    expect(await physicalColumns(id)).toEqual([]);
    expect(await api.code(admin, 'PUT', '/api/diyTable/design', { id: 77777, design: baseDesign })).toBe(
      'F1000',
    );
  });

  it('publishes versions: columns per storage kind, renames keep values, type changes add a column', async () => {
    const id = await newForm();
    expect(await publish(id, baseDesign)).toEqual({ revision: 1, version: 1 });
    expect(await columnsOf(id)).toEqual([
      { field_id: 'memo', column_name: 'f_memo', storage_kind: 'text', created_version: 1 },
      { field_id: 'name', column_name: 'f_name', storage_kind: 'text', created_version: 1 },
      { field_id: 'price', column_name: 'f_price', storage_kind: 'decimal', created_version: 1 },
      { field_id: 'qty', column_name: 'f_qty', storage_kind: 'integer', created_version: 1 },
      { field_id: 'total', column_name: 'f_total', storage_kind: 'decimal', created_version: 1 },
    ]);
    const recordV1 = await api.ok<number>(admin, 'POST', `/api/diyData/${id}/add`, {
      values: { name: '甲公司', qty: 3, price: 2.5, total: 999, memo: '第一版' },
      submit: true,
    });

    // v2: rename name, qty becomes text, memo removed, a new field.
    const v2 = {
      fields: [
        { id: 'name', type: 'text', label: '单位名称', required: true, unique: 'form' },
        { id: 'qty', type: 'text', label: '数量说明' },
        { id: 'price', type: 'decimal', label: '单价', precision: 2 },
        { id: 'phone', type: 'mobile', label: '联系电话' },
      ],
    };
    expect((await publish(id, v2)).version).toBe(2);
    const columns = await columnsOf(id);
    expect(columns.filter((c) => c.created_version === 2)).toEqual([
      { field_id: 'phone', column_name: 'f_phone', storage_kind: 'text', created_version: 2 },
      { field_id: 'qty', column_name: 'f_qty_2', storage_kind: 'text', created_version: 2 },
    ]);
    expect(await physicalColumns(id)).toEqual(
      expect.arrayContaining(['f_memo', 'f_qty', 'f_qty_2', 'f_phone']),
    );

    // The old record still shows with its own version's design and values.
    const old = await api.ok<{ version: number; values: Record<string, unknown> }>(
      admin,
      'GET',
      `/api/diyData/${id}/${recordV1}`,
    );
    expect(old.version).toBe(1);
    expect(old.values).toEqual({ name: '甲公司', qty: 3, price: 2.5, total: 7.5, memo: '第一版' });
    const v1Design = await api.ok<FormDesignForFilling>(admin, 'GET', `/api/diyData/${id}/design?version=1`);
    expect(v1Design.design.fields.find((f) => f.id === 'name')?.label).toBe('企业名称');
    const current = await api.ok<FormDesignForFilling>(admin, 'GET', `/api/diyData/${id}/design`);
    expect(current.version).toBe(2);
    expect(current.item.myAuth).toMatchObject({ query: true, add: true, design: true });

    // A new record goes to the new column; the old value stays in the old one.
    const recordV2 = await api.ok<number>(admin, 'POST', `/api/diyData/${id}/add`, {
      values: { name: '乙公司', qty: '三箱', price: 1, phone: '13800138000' },
      submit: true,
    });
    const raw = (await t.app.ctx.db
      .selectFrom(`diy_data_${id}` as 'diy_table')
      .selectAll()
      .orderBy('id')
      .execute()) as unknown as Record<string, unknown>[];
    expect(raw.map((r) => [r.f_qty, r.f_qty_2])).toEqual([
      [3, null],
      [null, '三箱'],
    ]);
    expect(Number(raw[1]?.id)).toBe(recordV2);

    // Renamed field: the unique rule still sees the old record's value.
    const dup = await api.envelope(admin, 'POST', `/api/diyData/${id}/add`, {
      values: { name: '甲公司' },
      submit: true,
    });
    expect(dup.code).toBe(400);
    expect((dup.errors as Record<string, string[]>).name).toEqual(['单位名称已存在：甲公司']);

    const result = await api.ok<FormDesignResult>(admin, 'GET', `/api/diyTable/${id}`);
    expect(result.versions.map((v) => v.version)).toEqual([2, 1]);
    expect(result.published?.fields.map((f) => f.id)).toEqual(['name', 'qty', 'price', 'phone']);
    expect(result.form.hasDraft).toBe(false);
    const options = await api.ok<{ value: string }[]>(admin, 'GET', `/api/diyTable/column/select/${id}`);
    expect(options.map((o) => o.value)).toEqual(['name', 'qty', 'price', 'phone']);
  });

  it('clones a design alone or with its records', async () => {
    const id = await newForm({ title: '克隆源' });
    await publish(id, baseDesign);
    await api.ok(admin, 'POST', `/api/diyData/${id}/add`, {
      values: { name: '丙公司', qty: 1 },
      submit: true,
    });
    const designOnly = await api.ok<number>(admin, 'POST', '/api/diyTable/clone', { id });
    const copy = await api.ok<FormDesignResult>(admin, 'GET', `/api/diyTable/${designOnly}`);
    expect(copy.form).toMatchObject({ title: '克隆源 - 副本', version: 0, recordCount: 0 });
    expect(copy.draft.fields.map((f) => f.id)).toEqual(baseDesign.fields.map((f) => f.id));

    const withRecords = await api.ok<number>(admin, 'POST', '/api/diyTable/clone', {
      id,
      title: '克隆含数据',
      withRecords: true,
    });
    const page = await api.ok<{ total: number; items: { values: Record<string, unknown> }[] }>(
      admin,
      'POST',
      `/api/diyData/${withRecords}/page`,
      {},
    );
    expect(page.total).toBe(1);
    expect(page.items[0]?.values.name).toBe('丙公司');
    expect(await api.code(admin, 'POST', '/api/diyTable/clone', { id: 31313 })).toBe('F1000');
  });
});

describe('opening forms', () => {
  it('lists the forms a user may open with myAuth, and the pickers of the filling page', async () => {
    const id = await newForm({
      title: '贵州路专报',
      fillers: { all: false, orgIds: [orgs['310101002001']], roleIds: [], userIds: [], enterprises: false },
    });
    await publish(id, baseDesign);
    const mine = await api.ok<FormItem[]>(gzl, 'GET', '/api/diyTable/tableList');
    const item = mine.find((f) => f.id === id);
    expect(item).toMatchObject({ isEnable: true, isShowPwd: false, reportType: 1, isTip: true });
    expect(item?.myAuth).toMatchObject({ query: true, add: true, design: false, audit: false });
    await api.ok(gzl, 'POST', '/api/diyTable/clearTip', { id });
    const after = await api.ok<FormItem[]>(gzl, 'GET', '/api/diyTable/tableList');
    expect(after.find((f) => f.id === id)?.isTip).toBe(false);
    // Not in the audience: not listed, and its records are refused.
    expect((await api.ok<FormItem[]>(fgw, 'GET', '/api/diyTable/tableList')).some((f) => f.id === id)).toBe(
      false,
    );
    expect(await api.code(fgw, 'POST', `/api/diyData/${id}/add`, { values: { name: 'x' } })).toBe('F1000');
    // An enterprise user is outside an audience that does not admit enterprises.
    expect(await api.code(qy, 'GET', `/api/diyData/${id}/page`)).toBe('F1000');

    const options = await api.ok<{ value: number }[]>(
      gzl,
      'GET',
      '/api/diyTable/select?Types=1&DiyTableAffiliation=2',
    );
    expect(options.map((o) => o.value)).toContain(id);

    const users = await api.ok<{ value: number; label: string; extra: string | null }[]>(
      gzl,
      'GET',
      '/api/diyTable/pickUsers?keyword=吴',
    );
    expect(users.some((u) => u.label === '吴静')).toBe(true);
    const enterprises = await api.ok<{ label: string }[]>(
      gzl,
      'GET',
      '/api/diyTable/pickOrgs?type=enterprise',
    );
    expect(enterprises.length).toBeGreaterThan(0);
    // An enterprise user picks only their own enterprise and its people.
    const own = await api.ok<{ value: number }[]>(qy, 'GET', '/api/diyTable/pickOrgs');
    expect(own.map((o) => o.value)).toEqual([orgs['91310101MA1FP7K316']]);
    const byIds = await api.ok<{ value: number }[]>(
      qy,
      'GET',
      `/api/diyTable/pickOrgs?ids=${orgs['310101']}`,
    );
    expect(byIds).toEqual([]);
    expect(await api.code(gzl, 'GET', '/api/diyTable/pickUsers?ids=abc')).toBe(400);

    // Roles for a form's audiences: form admins, without needing role admin.
    const roles = await api.ok<{ id: number; code: string; name: string }[]>(
      admin,
      'GET',
      '/api/diyTable/pickRoles',
    );
    expect(roles.length).toBeGreaterThan(0);
    expect(Object.keys(roles[0] ?? {}).sort()).toEqual(['code', 'id', 'name']);
    expect(await api.code(qy, 'GET', '/api/diyTable/pickRoles')).toBe(403);
  });

  it('checks the form password: right, wrong, then rate-limited; records need it first', async () => {
    const id = await newForm({ title: '密码表单', password: encrypt(t.app, 'abc123') });
    await publish(id, baseDesign);
    const items = await api.ok<FormItem[]>(gzl, 'GET', '/api/diyTable/tableList');
    expect(items.find((f) => f.id === id)?.isShowPwd).toBe(true);
    // A form admin is not asked, and the item says so.
    const adminItems = await api.ok<FormItem[]>(admin, 'GET', '/api/diyTable/tableList');
    expect(adminItems.find((f) => f.id === id)?.isShowPwd).toBe(false);
    expect(await api.code(admin, 'POST', `/api/diyData/${id}/page`, {})).toBe(200);
    expect(await api.code(gzl, 'POST', `/api/diyData/${id}/page`, {})).toBe('F1007');
    expect(
      await api.code(gzl, 'POST', '/api/diyTable/CheckFormPwd', { tableId: id, password: 'not-a-cipher' }),
    ).toBe('D0010');
    expect(
      await api.code(gzl, 'POST', '/api/diyTable/CheckFormPwd', {
        tableId: id,
        password: encrypt(t.app, 'wrong1'),
      }),
    ).toBe('F1005');
    const right = await api.envelope(gzl, 'POST', '/api/diyTable/CheckFormPwd', {
      tableId: id,
      password: encrypt(t.app, 'abc123'),
    });
    expect(right).toMatchObject({ code: 200, message: '验证成功' });
    expect(await api.code(gzl, 'POST', `/api/diyData/${id}/page`, {})).toBe(200);

    // Another user: five wrong tries lock the checks of this form, even the right password.
    for (let i = 1; i <= 4; i++) {
      expect(
        await api.code(fgw, 'POST', '/api/diyTable/CheckFormPwd', {
          tableId: id,
          password: encrypt(t.app, `bad${i}xx`),
        }),
      ).toBe('F1005');
    }
    expect(
      await api.code(fgw, 'POST', '/api/diyTable/CheckFormPwd', {
        tableId: id,
        password: encrypt(t.app, 'bad5xx'),
      }),
    ).toBe('F1006');
    expect(
      await api.code(fgw, 'POST', '/api/diyTable/CheckFormPwd', {
        tableId: id,
        password: encrypt(t.app, 'abc123'),
      }),
    ).toBe('F1006');
    expect(await api.code(gzl, 'POST', '/api/diyTable/CheckFormPwd', { tableId: 999, password: 'x' })).toBe(
      'F1000',
    );
    expect(
      await api.code(admin, 'POST', '/api/diyTable/add', { title: 'p', password: encrypt(t.app, '123') }),
    ).toBe('F1011');
    // A new password forgets the verifications of that form; clearing it opens the form to all fillers.
    await api.ok(admin, 'POST', '/api/diyTable/update', { id, password: encrypt(t.app, 'newpass1') });
    expect(await api.code(gzl, 'POST', `/api/diyData/${id}/page`, {})).toBe('F1007');
    await api.ok(admin, 'POST', '/api/diyTable/update', { id, clearPassword: true });
    expect(await api.code(gzl, 'POST', `/api/diyData/${id}/page`, {})).toBe(200);
    // Form admins are not asked for the password.
    expect(await api.code(admin, 'POST', `/api/diyData/${id}/page`, {})).toBe(200);
  });
});
