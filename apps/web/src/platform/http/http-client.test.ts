import { type AxiosAdapter, AxiosError, type AxiosResponse } from 'axios';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

/** A request as the client sent it, through fetch (JSON calls) or axios (`request`). */
type Sent = { url: string; method: string; headers: Headers; body: unknown; timeout?: number };

function jwt(payload: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(payload)}.signature`;
}

function setup(
  answer: Answer | ((sent: Sent, signal?: AbortSignal) => Answer | Promise<never>),
  access: string | null = null,
  refresh: string | null = null,
) {
  const seen: Sent[] = [];
  const store = { access, refresh };
  const reply = (sent: Sent, signal?: AbortSignal) => {
    seen.push(sent);
    return typeof answer === 'function' ? answer(sent, signal) : answer;
  };
  const fakeFetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const value = await reply(
      {
        url: String(input),
        method: init?.method ?? 'GET',
        headers: new Headers(init?.headers),
        body: init?.body,
      },
      init?.signal ?? undefined,
    );
    const body = typeof value.data === 'string' ? value.data : JSON.stringify(value.data ?? '');
    return new Response(body, {
      status: value.status ?? 200,
      statusText: value.statusText ?? 'OK',
      headers: value.headers ?? {},
    });
  };
  const adapter: AxiosAdapter = async (config) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(config.headers.toJSON()))
      if (typeof value === 'string') headers.set(name, value);
    const value = await reply({
      url: config.url ?? '',
      method: (config.method ?? 'get').toUpperCase(),
      headers,
      body: config.data,
      timeout: config.timeout,
    });
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
    fetch: fakeFetch as typeof fetch,
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

afterEach(() => {
  vi.useRealTimers();
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

  it('names a call unanswered after 180 s 网络超时', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { client, deps } = setup(
      (_sent, signal) =>
        new Promise<never>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(signal.reason));
        }),
    );
    const outcome = client.get('/api/x').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(deps.notifyError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toEqual(new HttpError('网络超时'));
    expect(deps.notifyError).toHaveBeenCalledWith('网络超时');
  });

  it('names a network failure 网络连接错误', async () => {
    const { client } = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.get('/api/x')).rejects.toThrow('网络连接错误');
  });

  it('names any other failure without an answer 接口路径找不到', async () => {
    const { client } = setup(() =>
      Promise.reject(new DOMException('The operation was aborted.', 'AbortError')),
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
  it('sends Bearer and Accept-Language', async () => {
    const access = jwt({ exp: Math.floor(Date.now() / 1000) + 3600 });
    const { client, seen } = setup({ data: envelope(200) }, access, 'refresh-1');
    await client.get('/api/x');
    expect(seen[0].headers.get('Authorization')).toBe(`Bearer ${access}`);
    expect(seen[0].headers.get('Accept-Language')).toBe('zh-CN');
    expect(seen[0].headers.get('X-Authorization')).toBeNull();
  });

  it('sends a body as JSON, and none without one', async () => {
    const { client, seen } = setup({ data: envelope(200) });
    await client.put('/api/x', { name: '街道', ids: [1, 2] });
    await client.post('/api/sysAuth/logout');
    expect(seen[0].method).toBe('PUT');
    expect(seen[0].headers.get('Content-Type')).toBe('application/json;charset=utf-8');
    expect(JSON.parse(seen[0].body as string)).toEqual({ name: '街道', ids: [1, 2] });
    expect(seen[1].body).toBeUndefined();
    expect(seen[1].headers.get('Content-Type')).toBeNull();
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
    expect(seen[0].method).toBe('GET');
    expect(seen[0].body).toBeUndefined();
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

describe('http client request (axios, for uploads and files)', () => {
  it('sends Bearer, the refresh token once expired, Accept-Language and a 180 s timeout', async () => {
    const access = jwt({ exp: Math.floor(Date.now() / 1000) - 10 });
    const { client, seen } = setup({ data: envelope(200, { result: 7 }) }, access, 'refresh-1');
    await expect(client.request({ method: 'post', url: '/api/upload', data: 'bytes' })).resolves.toBe(7);
    expect(seen[0].headers.get('Authorization')).toBe(`Bearer ${access}`);
    expect(seen[0].headers.get('X-Authorization')).toBe('Bearer refresh-1');
    expect(seen[0].headers.get('Accept-Language')).toBe('zh-CN');
    expect(seen[0].timeout).toBe(180000);
  });

  it('turns a GET body into a query string', async () => {
    const { client, seen } = setup({ data: envelope(200) });
    await client.request({ method: 'get', url: '/api/file', data: { id: 3, name: '' } });
    expect(seen[0].url).toBe('/api/file?id=3');
    expect(seen[0].body).toBeUndefined();
  });

  it('applies the envelope and token rules', async () => {
    const { client, deps } = setup({
      data: envelope('D0008', { message: '验证码错误' }),
      headers: { 'access-token': 'new-a', 'x-access-token': 'new-r' },
    });
    await expect(client.request({ method: 'get', url: '/api/x' })).rejects.toThrow('验证码错误');
    expect(deps.notifyError).toHaveBeenCalledWith('验证码错误');
    expect(deps.tokens.save).toHaveBeenCalledWith('new-a', 'new-r');
  });

  it('names a timeout 网络超时', async () => {
    const { client, deps } = setup(() =>
      Promise.reject(new AxiosError(`timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`, 'ECONNABORTED')),
    );
    await expect(client.request({ url: '/api/x' })).rejects.toThrow('网络超时');
    expect(deps.notifyError).toHaveBeenCalledWith('网络超时');
  });

  it('names a network failure 网络连接错误', async () => {
    const { client } = setup(() => Promise.reject(new AxiosError('Network Error', 'ERR_NETWORK')));
    await expect(client.request({ url: '/api/x' })).rejects.toThrow('网络连接错误');
  });

  it('names any other failure without an answer 接口路径找不到', async () => {
    const { client } = setup(() => Promise.reject(new AxiosError('socket hang up', 'ECONNRESET')));
    await expect(client.request({ url: '/api/x' }, { silent: true })).rejects.toThrow('接口路径找不到');
  });
});
