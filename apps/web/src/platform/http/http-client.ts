import type { ErrorCode } from '@shuzhi/contracts/errors';
import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import {
  classifyTransportError,
  decideResponse,
  decideTokenHeaders,
  type ErrorDetails,
  errorDetails,
} from './envelope.ts';
import { isJwtExpired } from './jwt.ts';
import { appendQuery } from './query-string.ts';

export const REQUEST_TIMEOUT_MS = 180_000;

/**
 * Every failed request, whoever made it (the client, a download, a file fetched for preview): the
 * message to show, the envelope's code when the server answered one, and its details.
 */
export class HttpError extends Error {
  readonly code?: number | string;
  /** Validation failures (code 400): `{ field: [messages] }`. */
  readonly errors?: ErrorDetails;
  constructor(message: string, code?: number | string, errors?: ErrorDetails) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
    this.errors = errors;
  }
}

/**
 * Whether `error` is the server's refusal with one of `codes`. Codes come from the contracts' catalogue
 * (packages/contracts/src/errors.ts), so a code that is not there fails the typecheck; a platform status
 * matches whether the envelope carried it as a number or a string.
 */
export function hasErrorCode(error: unknown, ...codes: readonly ErrorCode[]): error is HttpError {
  return errorCodeIn(error, codes) !== undefined;
}

/** Which of `codes` the server refused the request with, if `error` is such a refusal. */
export function errorCodeIn<const Code extends ErrorCode>(
  error: unknown,
  codes: readonly Code[],
): Code | undefined {
  if (!(error instanceof HttpError) || error.code === undefined) return undefined;
  const code = String(error.code);
  return codes.find((candidate) => String(candidate) === code);
}

/**
 * The refusal in a JSON envelope that came back where a file was expected: its message (or `fallback`),
 * code and details.
 */
export function refusalOf(json: string, fallback: string): HttpError {
  let envelope: { code?: unknown; message?: unknown; errors?: unknown };
  try {
    envelope = JSON.parse(json);
  } catch {
    return new HttpError(fallback);
  }
  const message = typeof envelope?.message === 'string' && envelope.message ? envelope.message : fallback;
  const code =
    typeof envelope?.code === 'string' || typeof envelope?.code === 'number' ? envelope.code : undefined;
  return new HttpError(message, code, errorDetails(envelope?.errors));
}

/** Raised after the session was cleared; callers should simply stop. */
export class UnauthorizedError extends HttpError {
  constructor() {
    super('unauthorized', 401);
    this.name = 'UnauthorizedError';
  }
}

type TokenStore = {
  access(): string | null;
  refresh(): string | null;
  save(access: string, refresh?: string | null): void;
};

export type HttpClientDeps = {
  baseURL: string;
  tokens: TokenStore;
  /** Accept-Language value, e.g. `zh-CN`. */
  language(): string;
  /** Texts for transport failures, in the UI language. */
  text(key: 'timeout' | 'network' | 'notFound'): string;
  notifyError(message: string): void;
  /** Clears tokens and session and reloads the app (which lands on /login). */
  onUnauthorized(): void;
  /** Replaced in tests to answer without a network: JSON calls. */
  fetch?: typeof fetch;
  /** Replaced in tests to answer without a network: `request` (uploads, files). */
  adapter?: AxiosRequestConfig['adapter'];
};

type RequestOptions = {
  /** Do not toast errors; the caller shows its own feedback. */
  silent?: boolean;
  /** Sign-out calls: the answer's invalid_token header and 401 are expected, the caller clears the session. */
  signingOut?: boolean;
};

export type HttpClient = {
  /** Uploads with progress, files as blobs, own headers or timeouts: through axios, fetched on first use. */
  request<T>(config: AxiosRequestConfig, options?: RequestOptions): Promise<T>;
  get<T>(url: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  post<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  baseURL: string;
};

/** What came back, whichever way it was fetched. */
type Answer = { status: number; statusText: string; headers: Record<string, unknown>; data: unknown };

type Method = 'get' | 'post' | 'put' | 'delete';

const JSON_CONTENT_TYPE = 'application/json;charset=utf-8';
const ACCEPT = 'application/json, text/plain, */*';

/** A body as axios reads it by default: JSON when it parses, the text otherwise. */
function parseBody(text: string): unknown {
  if (text === '') return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One fetch, given up after REQUEST_TIMEOUT_MS (a `TimeoutError`), its body read and parsed. */
async function fetchAnswer(send: typeof fetch, target: string, init: RequestInit): Promise<Answer> {
  const abort = new AbortController();
  const timer = setTimeout(
    () => abort.abort(new DOMException(`timeout of ${REQUEST_TIMEOUT_MS}ms exceeded`, 'TimeoutError')),
    REQUEST_TIMEOUT_MS,
  );
  try {
    const response = await send(target, { ...init, signal: abort.signal });
    return {
      status: response.status,
      statusText: response.statusText,
      headers: Object.fromEntries(response.headers.entries()),
      data: parseBody(await response.text()),
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * JSON calls (`get`, `post`, `put`, `delete`: nearly all) go through the browser's fetch, so the login page
 * and most screens load no HTTP library; `request` takes axios's request config and loads axios on first
 * use. Both end in the same envelope and token rules (SPEC §8, `envelope.ts`).
 */
export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const send = deps.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  /** Authorization (and the refresh token once the access token expired) and the UI language. */
  function sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = { 'Accept-Language': deps.language() };
    const access = deps.tokens.access();
    if (access) {
      headers.Authorization = `Bearer ${access}`;
      const refresh = deps.tokens.refresh();
      if (refresh && isJwtExpired(access)) headers['X-Authorization'] = `Bearer ${refresh}`;
    }
    return headers;
  }

  let unauthorizedHandled = false;
  const unauthorized = (): never => {
    // Parallel calls often fail together; one reload is enough.
    if (!unauthorizedHandled) {
      unauthorizedHandled = true;
      deps.onUnauthorized();
    }
    throw new UnauthorizedError();
  };

  function settle(answer: Answer, options: RequestOptions): unknown {
    const tokenDecision = decideTokenHeaders(answer.headers);
    const decision = decideResponse(answer.status, answer.statusText, answer.data);
    if (options.signingOut)
      return decision.kind === 'result' || decision.kind === 'passthrough' ? decision.value : undefined;
    if (tokenDecision.kind === 'invalid') return unauthorized();
    if (tokenDecision.kind === 'store') deps.tokens.save(tokenDecision.access, tokenDecision.refresh);
    switch (decision.kind) {
      case 'result':
      case 'passthrough':
        return decision.value;
      case 'unauthorized':
        return unauthorized();
      case 'error':
        if (!options.silent) deps.notifyError(decision.message);
        throw new HttpError(decision.message, decision.code, decision.errors);
    }
  }

  /** No usable answer arrived (timeout, network, …). */
  function failed(error: Parameters<typeof classifyTransportError>[0], options: RequestOptions): never {
    const failure = classifyTransportError(error);
    if (failure.kind === 'unauthorized') return unauthorized();
    const message = failure.kind === 'status' ? (failure.statusText ?? '') : deps.text(failure.kind);
    if (!options.silent) deps.notifyError(message);
    throw new HttpError(message);
  }

  async function call<T>(
    method: Method,
    url: string,
    body: unknown,
    options: RequestOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: ACCEPT, ...sessionHeaders() };
    let target = `${deps.baseURL}${url}`;
    let payload: string | undefined;
    if (method === 'get') {
      if (body && typeof body === 'object') target = appendQuery(target, body as Record<string, unknown>);
    } else if (body !== undefined) {
      headers['Content-Type'] = JSON_CONTENT_TYPE;
      payload = JSON.stringify(body);
    }
    let answer: Answer;
    try {
      answer = await fetchAnswer(send, target, { method: method.toUpperCase(), headers, body: payload });
    } catch (error) {
      if (options.signingOut) return undefined as T;
      const name = error instanceof Error || error instanceof DOMException ? error.name : '';
      return failed(
        {
          message: error instanceof Error ? error.message : String(error),
          code: name === 'TimeoutError' ? 'ETIMEDOUT' : name === 'TypeError' ? 'ERR_NETWORK' : undefined,
        },
        options,
      );
    }
    return settle(answer, options) as T;
  }

  let axiosInstance: Promise<{ instance: AxiosInstance; isAxiosError: (error: unknown) => boolean }> | null =
    null;
  function loadAxios() {
    axiosInstance ??= import('axios').then(({ default: axios }) => {
      const instance = axios.create({
        baseURL: deps.baseURL,
        timeout: REQUEST_TIMEOUT_MS,
        headers: { 'Content-Type': JSON_CONTENT_TYPE },
        // Every status reaches the envelope rules, so HTTP and body outcomes are decided in one place.
        validateStatus: () => true,
        adapter: deps.adapter,
      });
      instance.interceptors.request.use((config) => {
        for (const [name, value] of Object.entries(sessionHeaders())) config.headers.set(name, value);
        if (
          (config.method ?? 'get').toLowerCase() === 'get' &&
          config.data &&
          typeof config.data === 'object'
        ) {
          config.url = appendQuery(config.url ?? '', config.data as Record<string, unknown>);
          config.data = undefined;
        }
        return config;
      });
      return { instance, isAxiosError: axios.isAxiosError };
    });
    return axiosInstance;
  }

  async function request<T>(config: AxiosRequestConfig, options: RequestOptions = {}): Promise<T> {
    const { instance, isAxiosError } = await loadAxios();
    let answer: Answer;
    try {
      const response = await instance.request(config);
      answer = {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers as Record<string, unknown>,
        data: response.data,
      };
    } catch (error) {
      if (!isAxiosError(error)) throw error;
      if (options.signingOut) return undefined as T;
      return failed(error as Parameters<typeof classifyTransportError>[0], options);
    }
    return settle(answer, options) as T;
  }

  return {
    request,
    get: (url, params, options) => call('get', url, params, options),
    post: (url, body, options) => call('post', url, body, options),
    put: (url, body, options) => call('put', url, body, options),
    delete: (url, body, options) => call('delete', url, body, options),
    baseURL: deps.baseURL,
  };
}
