import type { ClassifyOption, ClassifyRow, FormRow } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 5 §6, form categories (`/api/diyTableClassify/…`): a tenant tree by pid with live parents only and
 * no cycles, formCount, deletes refused while forms or sub-categories remain, the options of 报表填报, and
 * the category of a form checked against live categories.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let qy: string;
let fgw: string;

const add = (body: Record<string, unknown>) =>
  api.envelope<number>(admin, 'POST', '/api/diyTableClassify/add', body);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  qy = (await login(t.app, 'qyfiller')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
});

afterAll(async () => {
  await t?.close();
});

describe('categories', () => {
  let top: number;
  let child: number;
  let grandchild: number;

  it('adds a tree; a parent must be a live category of the tenant', async () => {
    top = await api.ok<number>(admin, 'POST', '/api/diyTableClassify/add', { name: '统计报表', orderNo: 10 });
    child = await api.ok<number>(admin, 'POST', '/api/diyTableClassify/add', { name: '月报', pid: top });
    grandchild = await api.ok<number>(admin, 'POST', '/api/diyTableClassify/add', {
      name: '人口月报',
      pid: child,
    });
    expect((await add({ name: '孤儿', pid: 999_999 })).code).toBe('F1010');
    expect((await add({ name: '', pid: 0 })).code).toBe(400);
    expect((await add({ name: '月报', pid: top })).code).toBe('D1006');
    // The same name under another parent is fine.
    expect((await add({ name: '月报', pid: 0 })).code).toBe(200);
    const detail = await api.ok<ClassifyRow>(admin, 'GET', `/api/diyTableClassify/detail?Id=${child}`);
    expect(detail).toMatchObject({
      id: child,
      pid: top,
      name: '月报',
      formCount: 0,
      status: 1,
      orderNo: 100,
    });
    expect(await api.code(admin, 'GET', '/api/diyTableClassify/detail?Id=123456789')).toBe('F1010');
  });

  it('refuses a parent that is the category itself, below it, or missing', async () => {
    const update = (body: Record<string, unknown>) =>
      api.code(admin, 'PUT', '/api/diyTableClassify/update', body);
    expect(await update({ id: top, pid: top })).toBe('D2002');
    expect(await update({ id: top, pid: grandchild })).toBe('D2002');
    expect(await update({ id: child, pid: 424242 })).toBe('F1010');
    expect(await update({ id: 424242, name: 'x' })).toBe('D1002');
    expect(await update({ id: grandchild, pid: top, name: '人口月报（调整）' })).toBe(200);
    const moved = await api.ok<ClassifyRow>(admin, 'GET', `/api/diyTableClassify/detail?Id=${grandchild}`);
    expect(moved).toMatchObject({ pid: top, name: '人口月报（调整）' });
    expect(await update({ id: grandchild, pid: child, name: '人口月报' })).toBe(200);
  });

  it('pages and lists with formCount, filters and order', async () => {
    const formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '分类测试表',
      categoryId: child,
    });
    const page = await api.ok<PageResult<ClassifyRow>>(admin, 'POST', '/api/diyTableClassify/page', {
      page: 1,
      pageSize: 10,
      name: '月报',
    });
    expect(page.items.map((r) => r.name).sort()).toEqual(['人口月报', '月报', '月报']);
    expect(page.items.find((r) => r.id === child)?.formCount).toBe(1);
    const sorted = await api.ok<PageResult<ClassifyRow>>(
      admin,
      'GET',
      '/api/diyTableClassify/page?page=1&pageSize=2&field=orderNo&order=ascending',
    );
    expect(sorted.total).toBe(7);
    expect(sorted.items.map((r) => r.name)).toEqual(['企业填报', '社区治理']);
    const list = await api.ok<ClassifyRow[]>(admin, 'GET', '/api/diyTableClassify/list');
    expect(list.map((r) => r.orderNo)).toEqual([...list.map((r) => r.orderNo)].sort((a, b) => a - b));
    expect(list.find((r) => r.name === '企业填报')?.formCount).toBe(1);
    await api.ok(admin, 'POST', '/api/diyTable/delete', { id: formId });
    const after = await api.ok<ClassifyRow>(admin, 'GET', `/api/diyTableClassify/detail?Id=${child}`);
    expect(after.formCount).toBe(0);
  });

  it('refuses to delete a category holding forms or sub-categories', async () => {
    expect(await api.code(admin, 'POST', '/api/diyTableClassify/delete', { id: top })).toBe('F1016');
    const holder = await api.ok<number>(admin, 'POST', '/api/diyTableClassify/add', { name: '有表单的分类' });
    const formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '占用分类的表',
      categoryId: holder,
    });
    expect(await api.code(admin, 'POST', '/api/diyTableClassify/delete', { id: holder })).toBe('F1016');
    await api.ok(admin, 'PUT', '/api/diyTable/update', { id: formId, categoryId: null });
    await api.ok(admin, 'POST', '/api/diyTableClassify/delete', { id: holder });
    await api.ok(admin, 'POST', '/api/diyTableClassify/delete', { id: grandchild });
    expect(await api.code(admin, 'POST', '/api/diyTableClassify/delete', { id: grandchild })).toBe('D1002');
    // A deleted category is no parent and no form's category.
    expect((await add({ name: '挂在已删分类下', pid: grandchild })).code).toBe('F1010');
    expect(
      await api.code(admin, 'POST', '/api/diyTable/add', { title: '坏分类', categoryId: grandchild }),
    ).toBe('F1010');
    expect(await api.code(admin, 'PUT', '/api/diyTable/update', { id: formId, categoryId: 987654321 })).toBe(
      'F1010',
    );
  });

  it('answers the enabled categories as options to any signed-in user', async () => {
    await api.ok(admin, 'PUT', '/api/diyTableClassify/update', { id: child, status: 2 });
    // Fields left out keep their value.
    const disabled = await api.ok<ClassifyRow>(admin, 'GET', `/api/diyTableClassify/detail?Id=${child}`);
    expect(disabled).toMatchObject({ pid: top, name: '月报', status: 2, orderNo: 100 });
    const options = await api.ok<ClassifyOption[]>(qy, 'GET', '/api/diyTableClassify/options');
    expect(options.some((o) => o.value === child)).toBe(false);
    expect(options.find((o) => o.value === top)).toMatchObject({ label: '统计报表', pid: 0, orderNo: 10 });
    expect(options.slice(0, 3).map((o) => [o.label, o.formCount])).toEqual([
      ['企业填报', 1],
      ['社区治理', 2],
      ['安全生产', 1],
    ]);
    expect(options.map((o) => o.orderNo)).toEqual([...options.map((o) => o.orderNo)].sort((a, b) => a - b));
  });

  it('needs the diyTableClassify permissions to manage', async () => {
    expect(await api.code(fgw, 'POST', '/api/diyTableClassify/page', { page: 1, pageSize: 10 })).toBe(403);
    expect(await api.code(fgw, 'POST', '/api/diyTableClassify/add', { name: 'x' })).toBe(403);
    expect(await api.code(qy, 'POST', '/api/diyTableClassify/delete', { id: top })).toBe(403);
    const list = await api.ok<FormRow[]>(admin, 'GET', '/api/diyTable/list');
    expect(list.length).toBeGreaterThan(0);
  });
});
