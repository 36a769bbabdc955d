import { type AxiosAdapter, AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/i18n.ts';
import {
  createHttpClient,
  errorCodeIn,
  HttpError,
  hasErrorCode,
  REQUEST_TIMEOUT_MS,
  refusalOf,
  UnauthorizedError,
} from './http-client.ts';

type Answer = { status?: number; statusText?: string; data?: unknown; headers?: Record<string, string> };

function jwt(payload: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

function setup(
  answer: Answer | ((config: InternalAxiosRequestConfig) => Answer | Promise<never>),
  access: string | null = null,
  refresh: string | null = null,
) {
  const seen: InternalAxiosRequestConfig[] = [];
  const store = { access, refresh };
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const value = typeof answer === 'function' ? await answer(config) : answer;
    return {
      data: value.data,
      status: value.status ?? 200,
      statusText: value.statusText ?? 'OK',
      headers: value.headers ?? {},
      config,
    } as AxiosResponse;
  };
  const deps = {
    baseURL: '',
    tokens: {
      access: () => store.access,
      refresh: () => store.refresh,
      save: vi.fn((a: string, r?: string | null) => {
        store.access = a;
        store.refresh = r ?? null;
      }),
    },
    language: () => 'zh-CN',
    text: (key: 'timeout' | 'network' | 'notFound') => i18n.t(`http.${key}`, { lng: 'zh-CN' }),
    notifyError: vi.fn(),
    onUnauthorized: vi.fn(),
    adapter,
  };
  return { client: createHttpClient(deps), deps, seen, store };
}

const envelope = (code: unknown, extra: Record<string, unknown> = {}) => ({
  code,
  type: code === 200 ? 'success' : 'error',
  message: '',
  result: null,
  extras: null,
  time: '2026-11-21 10:00:00',
  errors: null,
  ...extra,
});

describe('http client envelope rules', () => {
  it('resolves code 200 with the result', async () => {
    const { client, deps } = setup({ data: envelope(200, { result: { id: 1 } }) });
    await expect(client.get('/api/x')).resolves.toEqual({ id: 1 });
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('clears the session on a body code 401', async () => {
    const { client, deps } = setup({ data: envelope(401, { message: '401 登录已过期，请重新登录' }) });
    await expect(client.get('/api/x')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('clears the session on HTTP 401', async () => {
    const { client, deps } = setup({ status: 401, statusText: 'Unauthorized', data: envelope(401) });
    await expect(client.post('/api/x', {})).rejects.toBeInstanceOf(UnauthorizedError);
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('passes code 999 through as the whole body', async () => {
    const body = envelope(999, { message: 'handled by the caller', result: 5 });
    const { client, deps } = setup({ data: body });
    await expect(client.get('/api/x')).resolves.toEqual(body);
    expect(deps.notifyError).not.toHaveBeenCalled();
  });

  it('passes bodies without a code through', async () => {
    const { client } = setup({ data: { rows: [1, 2] } });
    await expect(client.get('/api/x')).resolves.toEqual({ rows: [1, 2] });
  });

  it('toasts and rejects any other code with its message', async () => {
    const { client, deps } = setup({ data: envelope('D0008', { message: '验证码错误' }) });
    const error = await client.post('/api/sysAuth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).message).toBe('验证码错误');
    expect((error as HttpError).code).toBe('D0008');
    expect(deps.notifyError).toHaveBeenCalledWith('验证码错误');
  });

  it('stringifies an object message', async () => {
    const { client, deps } = setup({ data: envelope(500, { message: { detail: 'boom' } }) });
    await expect(client.get('/api/x')).rejects.toThrow('{"detail":"boom"}');
    expect(deps.notifyError).toHaveBeenCalledWith('{"detail":"boom"}');
  });

  it('rejects a body with errors with the errors as text', async () => {
    const { client, deps } = setup({
      data: envelope(400, { message: 'account 不能为空', errors: { account: ['账号不能为空'] } }),
    });
    await expect(client.post('/api/x', {})).rejects.toThrow('account: 账号不能为空');
    expect(deps.notifyError).toHaveBeenCalledWith('account: 账号不能为空');
  });

  it('rejects HTTP errors with the status text, or Request Error.', async () => {
    const first = setup({ status: 403, statusText: 'Forbidden', data: envelope(403) });
    await expect(first.client.get('/api/x')).rejects.toThrow('Forbidden');
    const second = setup({ status: 500, statusText: '', data: '' });
    await expect(second.client.get('/api/x')).rejects.toThrow('Request Error.');
    expect(second.deps.notifyError).toHaveBeenCalledWith('Request Error.');
  });

  it('names a timeout 网络超时', async () => {
    const { client, deps } = setup((config) =>
      Promise.reject(new AxiosError(`timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`, 'ECONNABORTED', config)),
    );
    await expect(client.get('/api/x')).rejects.toThrow('网络超时');
    expect(deps.notifyError).toHaveBeenCalledWith('网络超时');
  });

  it('names a network failure 网络连接错误', async () => {
    const { client } = setup((config) =>
      Promise.reject(new AxiosError('Network Error', 'ERR_NETWORK', config)),
    );
    await expect(client.get('/api/x')).rejects.toThrow('网络连接错误');
  });

  it('names any other failure without an answer 接口路径找不到', async () => {
    const { client } = setup((config) =>
      Promise.reject(new AxiosError('socket hang up', 'ECONNRESET', config)),
    );
    await expect(client.get('/api/x')).rejects.toThrow('接口路径找不到');
  });

  it('keeps quiet for silent calls', async () => {
    const { client, deps } = setup({ data: envelope('D1000', { message: '密码不正确' }) });
    await expect(client.post('/api/x', {}, { silent: true })).rejects.toThrow('密码不正确');
    expect(deps.notifyError).not.toHaveBeenCalled();
  });
});

describe('http client tokens and headers', () => {
  it('sends Bearer, Accept-Language and a 180 s timeout', async () => {
    const access = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    const { client, seen } = setup({ data: envelope(200) }, access, 'refresh-1');
    await client.get('/api/x');
    expect(seen[0].headers.get('Authorization')).toBe(`Bearer ${access}`);
    expect(seen[0].headers.get('Accept-Language')).toBe('zh-CN');
    expect(seen[0].headers.get('X-Authorization')).toBeUndefined();
    expect(seen[0].timeout).toBe(180000);
  });

  it('adds X-Authorization with the refresh token once the access token expired', async () => {
    const access = jwt({ exp: Math.floor(Date.now() / 1000) - 10 });
    const { client, seen } = setup({ data: envelope(200) }, access, 'refresh-1');
    await client.get('/api/x');
    expect(seen[0].headers.get('X-Authorization')).toBe('Bearer refresh-1');
  });

  it('stores a renewed pair from the response headers', async () => {
    const { client, deps } = setup(
      { data: envelope(200), headers: { 'access-token': 'new-a', 'x-access-token': 'new-r' } },
      'a',
      'r',
    );
    await client.get('/api/x');
    expect(deps.tokens.save).toHaveBeenCalledWith('new-a', 'new-r');
  });

  it('clears the session on an invalid_token header', async () => {
    const { client, deps } = setup(
      { data: envelope(200), headers: { 'access-token': 'invalid_token' } },
      'a',
      'r',
    );
    await expect(client.get('/api/x')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(deps.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(deps.tokens.save).not.toHaveBeenCalled();
  });

  it('turns a GET body into a query string', async () => {
    const { client, seen } = setup({ data: envelope(200) });
    await client.get('/api/sysOrg/list', { Name: '街道', Code: '', Type: null, filter: { a: 1, b: '' } });
    expect(seen[0].url).toBe('/api/sysOrg/list?Name=%E8%A1%97%E9%81%93&filter%5Ba%5D=1');
    expect(seen[0].data).toBeUndefined();
  });

  it('does not reload for sign-out calls answered with invalid_token', async () => {
    const { client, deps } = setup(
      { data: envelope(200), headers: { 'access-token': 'invalid_token' } },
      'a',
      'r',
    );
    await expect(client.post('/api/sysAuth/logout', undefined, { signingOut: true })).resolves.toBeNull();
    expect(deps.onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('refusals', () => {
  it('matches catalogue codes whether the envelope carried them as numbers or strings', () => {
    const refused = new HttpError('表单已被锁定', 'F1007');
    expect(hasErrorCode(refused, 'F1007')).toBe(true);
    expect(hasErrorCode(refused, 'F1000', 'F1002')).toBe(false);
    expect(hasErrorCode(new HttpError('请求参数有误', '400'), 400)).toBe(true);
    expect(hasErrorCode(new HttpError('网络连接错误'), 400)).toBe(false);
    expect(hasErrorCode(new Error('F1007'), 'F1007')).toBe(false);
    expect(errorCodeIn(refused, ['F1000', 'F1007'])).toBe('F1007');
    expect(errorCodeIn(new HttpError('x', 'F1003'), ['F1000', 'F1007'])).toBeUndefined();
  });

  it('reads the envelope that came back instead of a file', () => {
    const refusal = refusalOf(
      JSON.stringify({ code: 'F1000', message: '表单不存在', errors: { id: ['无效'] } }),
      '导出失败',
    );
    expect(refusal).toBeInstanceOf(HttpError);
    expect([refusal.message, refusal.code, refusal.errors]).toEqual([
      '表单不存在',
      'F1000',
      { id: ['无效'] },
    ]);
    expect(refusalOf(JSON.stringify({ code: 500 }), '导出失败').message).toBe('导出失败');
    const garbled = refusalOf('<html>', '导出失败');
    expect([garbled.message, garbled.code]).toEqual(['导出失败', undefined]);
  });
});
