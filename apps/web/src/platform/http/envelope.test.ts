import { describe, expect, it } from 'vitest';
import {
  classifyTransportError,
  decideResponse,
  decideTokenHeaders,
  errorDetails,
  errorsText,
} from './envelope.ts';
import { isJwtExpired } from './jwt.ts';
import { buildQueryString } from './query-string.ts';

describe('decideResponse', () => {
  it('follows SPEC §8 in order', () => {
    expect(decideResponse(200, 'OK', { code: 200, result: 7 })).toEqual({ kind: 'result', value: 7 });
    expect(decideResponse(200, 'OK', { code: '200', result: 7 })).toEqual({ kind: 'result', value: 7 });
    expect(decideResponse(200, 'OK', { code: 401 })).toEqual({ kind: 'unauthorized' });
    expect(decideResponse(401, 'Unauthorized', null)).toEqual({ kind: 'unauthorized' });
    expect(decideResponse(200, 'OK', { code: 999, result: 1 })).toEqual({
      kind: 'passthrough',
      value: { code: 999, result: 1 },
    });
    expect(decideResponse(200, 'OK', { message: 'x' })).toEqual({
      kind: 'passthrough',
      value: { message: 'x' },
    });
    expect(decideResponse(200, 'OK', { code: 'D1000', message: '密码不正确' })).toEqual({
      kind: 'error',
      message: '密码不正确',
      code: 'D1000',
    });
    expect(decideResponse(429, 'Too Many Requests', { code: 429 })).toEqual({
      kind: 'error',
      message: 'Too Many Requests',
    });
    expect(decideResponse(502, '', null)).toEqual({ kind: 'error', message: 'Request Error.' });
  });

  it('reports errors before looking at the code', () => {
    expect(decideResponse(200, 'OK', { code: 400, errors: 'bad' })).toMatchObject({
      kind: 'error',
      message: 'bad',
    });
    expect(errorsText({ account: ['必填', '过长'], code: ['错误'] })).toBe('account: 必填, 过长; code: 错误');
  });

  it('keeps the details in the shape of the wire contract', () => {
    const decision = decideResponse(200, 'OK', {
      code: 400,
      errors: { account: ['必填'], name: '过长', bad: 3 },
    });
    expect(decision.kind === 'error' && decision.errors).toEqual({ account: ['必填'], name: '过长' });
    expect(errorDetails(['a'])).toBeUndefined();
    expect(errorDetails('只有一句')).toBe('只有一句');
  });
});

describe('decideTokenHeaders', () => {
  it('reads the renewed pair and the invalid marker', () => {
    expect(decideTokenHeaders({})).toEqual({ kind: 'none' });
    expect(decideTokenHeaders({ 'access-token': 'invalid_token' })).toEqual({ kind: 'invalid' });
    expect(decideTokenHeaders({ 'access-token': 'a', 'x-access-token': 'r' })).toEqual({
      kind: 'store',
      access: 'a',
      refresh: 'r',
    });
    expect(decideTokenHeaders({ 'access-token': 'a' })).toEqual({ kind: 'none' });
  });
});

describe('classifyTransportError', () => {
  it('tells timeouts, network errors, status answers and the rest apart', () => {
    expect(
      classifyTransportError({ code: 'ECONNABORTED', message: 'timeout of 180000ms exceeded' }).kind,
    ).toBe('timeout');
    expect(classifyTransportError({ code: 'ERR_NETWORK', message: 'Network Error' }).kind).toBe('network');
    expect(classifyTransportError({ message: 'x', response: { status: 401 } }).kind).toBe('unauthorized');
    expect(classifyTransportError({ message: 'x', response: { status: 500, statusText: 'Bad' } })).toEqual({
      kind: 'status',
      statusText: 'Bad',
    });
    expect(classifyTransportError({ message: 'x' }).kind).toBe('notFound');
  });
});

describe('buildQueryString', () => {
  it('drops empty values and nests objects as name[key]', () => {
    expect(buildQueryString({ page: 1, Name: '', Id: null, x: undefined, Title: 'a b' })).toBe(
      'page=1&Title=a%20b',
    );
    expect(buildQueryString({ filter: { status: 1, name: '' } })).toBe('filter%5Bstatus%5D=1');
    expect(buildQueryString({ Types: [1, 2] })).toBe('Types%5B0%5D=1&Types%5B1%5D=2');
    expect(buildQueryString({ flag: false, zero: 0 })).toBe('flag=false&zero=0');
    expect(buildQueryString(undefined)).toBe('');
  });
});

describe('isJwtExpired', () => {
  const token = (exp: number) => `x.${btoa(JSON.stringify({ exp }))}.y`;
  it('compares exp with now', () => {
    expect(isJwtExpired(token(100), 101_000)).toBe(true);
    expect(isJwtExpired(token(100), 99_000)).toBe(false);
    expect(isJwtExpired('not-a-jwt')).toBe(false);
  });
});
