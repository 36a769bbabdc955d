import type { ErrorCode } from '@shuzhi/contracts/errors';
import axios, { type AxiosInstance, type AxiosRequestConfig, type AxiosResponse, isAxiosError } from 'axios';
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
  /** Replaced in tests to answer without a network. */
  adapter?: AxiosRequestConfig['adapter'];
};

type RequestOptions = {
  /** Do not toast errors; the caller shows its own feedback. */
  silent?: boolean;
  /** Sign-out calls: the answer's invalid_token header and 401 are expected, the caller clears the session. */
  signingOut?: boolean;
};

export type HttpClient = {
  request<T>(config: AxiosRequestConfig, options?: RequestOptions): Promise<T>;
  get<T>(url: string, params?: Record<string, unknown>, options?: RequestOptions): Promise<T>;
  post<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T>(url: string, body?: unknown, options?: RequestOptions): Promise<T>;
  axios: AxiosInstance;
};

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  const instance = axios.create({
    baseURL: deps.baseURL,
    timeout: REQUEST_TIMEOUT_MS,
    headers: { 'Content-Type': 'application/json;charset=utf-8' },
    // Every status reaches the envelope rules, so HTTP and body outcomes are decided in one place.
    validateStatus: () => true,
    adapter: deps.adapter,
  });

  instance.interceptors.request.use((config) => {
    const access = deps.tokens.access();
    if (access) {
      config.headers.set('Authorization', `Bearer ${access}`);
      const refresh = deps.tokens.refresh();
      if (refresh && isJwtExpired(access)) config.headers.set('X-Authorization', `Bearer ${refresh}`);
    }
    config.headers.set('Accept-Language', deps.language());
    if ((config.method ?? 'get').toLowerCase() === 'get' && config.data && typeof config.data === 'object') {
      config.url = appendQuery(config.url ?? '', config.data as Record<string, unknown>);
      config.data = undefined;
    }
    return config;
  });

  let unauthorizedHandled = false;
  const unauthorized = (): never => {
    // Parallel calls often fail together; one reload is enough.
    if (!unauthorizedHandled) {
      unauthorizedHandled = true;
      deps.onUnauthorized();
    }
    throw new UnauthorizedError();
  };

  function settle(response: AxiosResponse, options: RequestOptions): unknown {
    const tokenDecision = decideTokenHeaders(response.headers as Record<string, unknown>);
    const decision = decideResponse(response.status, response.statusText, response.data);
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

  async function request<T>(config: AxiosRequestConfig, options: RequestOptions = {}): Promise<T> {
    let response: AxiosResponse;
    try {
      response = await instance.request(config);
    } catch (error) {
      if (!isAxiosError(error)) throw error;
      const failure = classifyTransportError(error);
      if (options.signingOut) return undefined as T;
      if (failure.kind === 'unauthorized') return unauthorized();
      const message = failure.kind === 'status' ? (failure.statusText ?? '') : deps.text(failure.kind);
      if (!options.silent) deps.notifyError(message);
      throw new HttpError(message);
    }
    return settle(response, options) as T;
  }

  return {
    request,
    get: (url, params, options) => request({ method: 'get', url, data: params }, options),
    post: (url, body, options) => request({ method: 'post', url, data: body }, options),
    put: (url, body, options) => request({ method: 'put', url, data: body }, options),
    delete: (url, body, options) => request({ method: 'delete', url, data: body }, options),
    axios: instance,
  };
}
