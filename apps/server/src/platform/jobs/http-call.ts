/** The first bytes of an answer kept in the run record. */
export const RESULT_BYTES = 2048;
const MAX_REDIRECTS = 5;
const METHODS_WITHOUT_BODY = new Set(['GET', 'HEAD']);

export type HttpCall = {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
};

/** A run that ended badly, with what the record shows as its error. */
export class JobFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailure';
  }
}

/** Only http: and https: addresses are called (J1005 when saving; checked again for every redirect). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

async function firstBytes(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESULT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks).subarray(0, RESULT_BYTES);
  // A character cut in half at the end is dropped rather than shown as a replacement mark.
  return new TextDecoder('utf-8').decode(bytes).replace(/\uFFFD$/, '');
}

/**
 * Calls the address with the signal (cancel or timeout), following at most five redirects and only to
 * http(s) addresses. Answers `HTTP <status>` and the first 2 KB of the body; a non-2xx answer is a failure
 * carrying the same text.
 */
export async function callHttp(call: HttpCall, signal: AbortSignal): Promise<string> {
  let url = call.url;
  let method = call.method.toUpperCase();
  let body: string | null = METHODS_WITHOUT_BODY.has(method) ? null : call.body;
  for (let hop = 0; ; hop++) {
    if (!isHttpUrl(url)) throw new JobFailure(`Only http and https addresses are called: ${url}`);
    const response = await fetch(url, {
      method,
      headers: call.headers,
      ...(body !== null && body !== '' ? { body } : {}),
      redirect: 'manual',
      signal,
    });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) throw new JobFailure(`More than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url).toString();
      // As browsers do: 303 (and 301/302 after a POST) continue with a GET without a body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST')
      ) {
        method = 'GET';
        body = null;
      }
      continue;
    }
    const text = await firstBytes(response);
    const summary = `HTTP ${response.status}${text ? `\n${text}` : ''}`;
    if (response.status < 200 || response.status > 299) throw new JobFailure(summary);
    return summary;
  }
}
