/** Pure decisions of the HTTP client (SPEC §8), kept apart from axios so they can be tested directly. */

/**
 * What a refusal says beside its message: validation failures (code 400) name each field with its messages
 * (`{ field: [messages] }`), a few answers carry one text.
 */
export type ErrorDetails = Readonly<Record<string, string | readonly string[]>> | string;

export type ResponseDecision =
  | { kind: 'result'; value: unknown }
  | { kind: 'passthrough'; value: unknown }
  | { kind: 'unauthorized' }
  | { kind: 'error'; message: string; code?: number | string; errors?: ErrorDetails };

const REQUEST_ERROR_TEXT = 'Request Error.';
/** Envelope code the server uses for answers that callers interpret themselves. */
const PASS_THROUGH_CODE = 999;

type EnvelopeLike = { code?: unknown; message?: unknown; result?: unknown; errors?: unknown };

function asEnvelope(body: unknown): EnvelopeLike | null {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as EnvelopeLike) : null;
}

function messageText(message: unknown): string {
  if (typeof message === 'string') return message;
  if (message === null || message === undefined) return '';
  return JSON.stringify(message);
}

/** Validation failures carry `{ field: [messages] }`; users read the messages, not the JSON. */
export function errorsText(errors: unknown): string {
  if (typeof errors === 'string') return errors;
  if (Array.isArray(errors)) return errors.map(messageText).join('; ');
  if (errors && typeof errors === 'object') {
    return Object.entries(errors as Record<string, unknown>)
      .map(([field, messages]) => {
        const text = Array.isArray(messages) ? messages.map(messageText).join(', ') : messageText(messages);
        return field ? `${field}: ${text}` : text;
      })
      .join('; ');
  }
  return messageText(errors);
}

/** The details as the wire contract shapes them; anything else the server could not have meant is dropped. */
export function errorDetails(errors: unknown): ErrorDetails | undefined {
  if (typeof errors === 'string') return errors;
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return undefined;
  const details: Record<string, string | string[]> = {};
  for (const [field, messages] of Object.entries(errors as Record<string, unknown>)) {
    if (typeof messages === 'string') details[field] = messages;
    else if (Array.isArray(messages)) details[field] = messages.map(messageText);
  }
  return details;
}

function isCode(code: unknown, expected: number): boolean {
  return code === expected || code === String(expected);
}

export function decideResponse(status: number, statusText: string, body: unknown): ResponseDecision {
  if (status === 401) return { kind: 'unauthorized' };
  if (status >= 400) return { kind: 'error', message: statusText || REQUEST_ERROR_TEXT };
  const envelope = asEnvelope(body);
  if (!envelope) return { kind: 'passthrough', value: body };
  if (envelope.errors)
    return {
      kind: 'error',
      message: errorsText(envelope.errors),
      code: codeOf(envelope),
      errors: errorDetails(envelope.errors),
    };
  if (isCode(envelope.code, 401)) return { kind: 'unauthorized' };
  if (envelope.code === undefined || envelope.code === null) return { kind: 'passthrough', value: body };
  if (isCode(envelope.code, PASS_THROUGH_CODE)) return { kind: 'passthrough', value: body };
  if (isCode(envelope.code, 200)) return { kind: 'result', value: envelope.result };
  return { kind: 'error', message: messageText(envelope.message), code: codeOf(envelope) };
}

function codeOf(envelope: EnvelopeLike): number | string | undefined {
  return typeof envelope.code === 'number' || typeof envelope.code === 'string' ? envelope.code : undefined;
}

export type TokenHeaderDecision =
  | { kind: 'none' }
  | { kind: 'invalid' }
  | { kind: 'store'; access: string; refresh: string };

const INVALID_TOKEN = 'invalid_token';

/** The server renews tokens in the `access-token` / `x-access-token` response headers. */
export function decideTokenHeaders(headers: Record<string, unknown>): TokenHeaderDecision {
  const access = headers['access-token'];
  const refresh = headers['x-access-token'];
  if (access === INVALID_TOKEN) return { kind: 'invalid' };
  if (
    typeof access === 'string' &&
    access &&
    typeof refresh === 'string' &&
    refresh &&
    refresh !== INVALID_TOKEN
  ) {
    return { kind: 'store', access, refresh };
  }
  return { kind: 'none' };
}

export type TransportErrorKind = 'unauthorized' | 'timeout' | 'network' | 'status' | 'notFound';

/** Classifies a failure where no usable answer arrived (axios error). */
export function classifyTransportError(error: {
  message?: string;
  code?: string;
  response?: { status?: number; statusText?: string; data?: unknown } | null;
}): { kind: TransportErrorKind; statusText?: string } {
  if (error.response?.status === 401) return { kind: 'unauthorized' };
  const message = error.message ?? '';
  if (error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT' || message.includes('timeout')) {
    return { kind: 'timeout' };
  }
  if (error.code === 'ERR_NETWORK' || message === 'Network Error') return { kind: 'network' };
  if (error.response) return { kind: 'status', statusText: error.response.statusText || REQUEST_ERROR_TEXT };
  return { kind: 'notFound' };
}
