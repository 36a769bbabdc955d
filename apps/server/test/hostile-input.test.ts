import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validationErrors } from '../src/platform/errors/messages.ts';
import { apiCalls, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Hostile input never gives a 500 (docs/security.md "Hostile input"): named cases first, then requests
 * generated from the OpenAPI document for every route, as an anonymous caller, a filler and an admin.
 */

let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let filler: string;
let formId: number;

/** A form with one field of each storage kind (text, bigint, decimal, JSON) and a sub-table. */
const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', maxLength: 2000 },
    { id: 'staff', type: 'integer', label: '人数' },
    { id: 'price', type: 'decimal', label: '单价', precision: 2 },
    {
      id: 'tags',
      type: 'checkbox',
      label: '标签',
      options: { source: 'options', items: [{ value: 'a', label: 'A' }] },
    },
    {
      id: 'lines',
      type: 'subTable',
      label: '明细',
      columns: [{ id: 'item', type: 'text', label: '品名' }],
    },
  ],
};

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  filler = (await login(t.app, 'gzlstaff')).accessToken;
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '敌意输入',
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
});

afterAll(async () => {
  await t?.close();
});

describe('named cases', () => {
  it.each(['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'])(
    'a sort field of %s is ignored on paged routes, the filler’s record page included',
    async (field) => {
      const users = await api.envelope(
        admin,
        'GET',
        `/api/sysUser/page?page=1&pageSize=5&field=${field}&order=ascend`,
      );
      expect(users.code).toBe(200);
      const pos = await api.envelope(admin, 'POST', '/api/sysPos/page', { field, order: 'descend' });
      expect(pos.code).toBe(200);
      const records = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
        field,
        order: 'ascend',
      });
      expect(records.code).toBe(200);
    },
  );

  it('refuses a NUL in any string with the same field error on every database', async () => {
    const added = await api.envelope(admin, 'POST', '/api/sysPos/add', { code: 'nul1', name: 'a\u0000b' });
    expect(added).toMatchObject({ code: 400, errors: { name: ['name不能包含空字符（\\0）'] } });
    const english = body(
      await t.app.inject({
        method: 'POST',
        url: '/api/sysPos/add',
        headers: { authorization: `Bearer ${admin}`, 'accept-language': 'en' },
        payload: { code: 'nul1', name: 'a\u0000b' },
      }),
    );
    expect(english.errors).toEqual({ name: ['name must not contain a NUL character (\\0)'] });
    const query = await api.envelope(admin, 'GET', '/api/sysUser/page?page=1&pageSize=5&account=%00');
    expect(query).toMatchObject({ code: 400, errors: { account: ['account不能包含空字符（\\0）'] } });
    const keyword = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, { keyword: 'x\u0000' });
    expect(keyword).toMatchObject({ code: 400, errors: { keyword: ['keyword不能包含空字符（\\0）'] } });
    const contains = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
      filters: [{ field: 'name', op: 'contains', value: 'x\u0000' }],
    });
    expect(contains.errors).toEqual({ 'filters.0.value': ['filters.0.value不能包含空字符（\\0）'] });
    const record = await api.envelope(filler, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: 'a\u0000b' },
    });
    expect(record).toMatchObject({
      code: 400,
      errors: { 'values.name': ['values.name不能包含空字符（\\0）'] },
    });
  });

  it('refuses numbers beyond the safe integers, and filter values the column cannot hold', async () => {
    const big = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
      filters: [{ field: 'staff', op: 'eq', value: 1e20 }],
    });
    expect(big).toMatchObject({
      code: 400,
      errors: { 'filters.0.value': ['filters.0.value不能大于9007199254740991'] },
    });
    for (const value of ['1e20', '1.5', ['1', '2e30']]) {
      const refused = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
        filters: [{ field: 'staff', op: Array.isArray(value) ? 'between' : 'gte', value }],
      });
      expect(refused.code, JSON.stringify(value)).toBe(400);
      expect(Object.keys(refused.errors ?? {})[0]).toMatch(/^filters\.0\.value/);
    }
    const decimal = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
      filters: [{ field: 'price', op: 'lte', value: '1e300' }],
    });
    expect(decimal.code).toBe(400);
    const fine = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
      filters: [{ field: 'staff', op: 'between', value: [1, '20'] }],
    });
    expect(fine.code).toBe(200);
    const negative = await api.envelope(filler, 'POST', `/api/diyData/${formId}/page`, {
      filters: [{ field: 'price', op: 'gte', value: -1e20 }],
    });
    expect(negative.errors).toEqual({ 'filters.0.value': ['filters.0.value不能小于-9007199254740991'] });
  });

  it('reports unknown keys like constructor and __proto__ as unknown fields', async () => {
    const issue = {
      code: 'unrecognized_keys',
      keys: ['constructor', '__proto__'],
      path: [],
      message: '',
      input: {},
    };
    const errors = validationErrors([issue as z.core.$ZodIssue], 'body', 'zh-CN');
    expect(JSON.parse(JSON.stringify(errors))).toEqual(
      JSON.parse('{"constructor":["不支持的字段"],"__proto__":["不支持的字段"]}'),
    );
    // The JSON parser refuses __proto__ itself (and a constructor with a prototype): a malformed body.
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/sysPos/add',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      payload: '{"code":"p1","name":"p","__proto__":{"isAdmin":true}}',
    });
    expect(body(poisoned)).toMatchObject({ code: 400, errors: { body: ['请求参数有误'] } });
  });

  it('answers a record that fails validation once, with its field errors', async () => {
    const warnings: string[] = [];
    const log = t.app.log as unknown as { warn: (...args: unknown[]) => void };
    const warn = log.warn;
    // Without a logger every request logs through the app's (its child is itself): a second send warns there.
    log.warn = (...args: unknown[]) => {
      warnings.push(JSON.stringify(args));
    };
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/diyData/${formId}/add`,
        headers: { authorization: `Bearer ${filler}` },
        payload: { values: { name: 'x'.repeat(2001) }, submit: true },
      });
      expect(body(response)).toMatchObject({
        code: 400,
        errors: { name: [expect.stringContaining('2000')] },
      });
      // The second send came after the response had ended.
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      log.warn = warn;
    }
    expect(warnings).toEqual([]);
  });
});
