import type { BrowserContext, Request } from 'playwright-core';

/**
 * What each open browser lived through lately, for the report a failing test prints: its last API calls with
 * their answers (a refusal is an envelope code other than 200 or an HTTP error) and how long they took, calls
 * that never got an answer, and errors the page threw. A CI log then tells a refusal, a click that sent
 * nothing and a stalled machine apart without a screenshot.
 */
const journals = new Map<BrowserContext, string[]>();
/** API calls sent and not yet answered, with when they were sent. */
const waiting = new Map<BrowserContext, Map<Request, number>>();

const KEEP = 30;

function clock(): string {
  return new Date().toISOString().slice(11, 23);
}

function apiPath(request: Request): string | null {
  const url = new URL(request.url());
  return url.pathname.startsWith('/api/') ? `${url.pathname}${url.search}` : null;
}

async function refusal(request: Request): Promise<string | null> {
  const response = await request.response();
  if (!response) return null;
  if (response.status() >= 400) return `HTTP ${response.status()}`;
  if (!(response.headers()['content-type'] ?? '').includes('application/json')) return null;
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown };
    return body.code === 200 || body.code === undefined
      ? null
      : `${String(body.code)} ${String(body.message ?? '')}`;
  } catch {
    return null;
  }
}

export function keepJournal(context: BrowserContext): void {
  const lines: string[] = [];
  journals.set(context, lines);
  const sent = new Map<Request, number>();
  waiting.set(context, sent);
  context.on('request', (request) => {
    if (apiPath(request)) sent.set(request, Date.now());
  });
  const note = (line: string) => {
    lines.push(`${clock()} ${line}`);
    if (lines.length > KEEP) lines.shift();
  };
  context.on('requestfinished', (request) => {
    sent.delete(request);
    const path = apiPath(request);
    if (!path) return;
    const took = Math.round(request.timing().responseEnd);
    // The answer can no longer be read once the browser context has closed.
    void refusal(request)
      .catch(() => 'answer unreadable')
      .then((refused) =>
        note(`${request.method()} ${path} → ${refused ? `REFUSED ${refused}` : 'ok'} (${took} ms)`),
      );
  });
  context.on('requestfailed', (request) => {
    sent.delete(request);
    const path = apiPath(request);
    if (path) note(`${request.method()} ${path} failed: ${request.failure()?.errorText ?? 'no answer'}`);
  });
  context.on('weberror', (error) => note(`page error: ${error.error().message}`));
}

export function dropJournal(context: BrowserContext): void {
  journals.delete(context);
  waiting.delete(context);
}

/** What the page shows that a person would read first: toasts, field errors, open dialogs, spinners. */
async function onScreen(context: BrowserContext): Promise<string[]> {
  const lines: string[] = [];
  for (const page of context.pages()) {
    const seen = await Promise.race([
      page.evaluate(() => {
        const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
        const texts = (selector: string) =>
          Array.from(document.querySelectorAll(selector))
            .filter(visible)
            .map((element) => (element.textContent ?? '').trim().slice(0, 160))
            .filter(Boolean);
        return {
          toasts: texts('.ant-message-notice, .ant-notification-notice'),
          fieldErrors: texts('.ant-form-item-explain-error'),
          dialogs: texts('.ant-modal-title, .ant-drawer-title'),
          spinning: document.querySelectorAll('.ant-spin-spinning').length,
        };
      }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000)),
    ]).catch((error: Error) => error.message);
    lines.push(`page ${page.url()}`);
    if (seen === null) lines.push('  (the page did not answer within 5 s)');
    else if (typeof seen === 'string') lines.push(`  (could not read the page: ${seen})`);
    else {
      if (seen.dialogs.length > 0) lines.push(`  open dialogs: ${seen.dialogs.join(' | ')}`);
      if (seen.toasts.length > 0) lines.push(`  toasts: ${seen.toasts.join(' | ')}`);
      if (seen.fieldErrors.length > 0) lines.push(`  field errors: ${seen.fieldErrors.join(' | ')}`);
      if (seen.spinning > 0) lines.push(`  spinners: ${seen.spinning}`);
    }
  }
  return lines;
}

/** The report a failing test adds to its error: each open browser's screen and its recent journal. */
export async function describeBrowsers(): Promise<string> {
  const parts: string[] = [];
  for (const [context, journal] of journals) {
    parts.push(...(await onScreen(context)));
    parts.push(
      journal.length > 0 ? '  last API calls and page errors:' : '  no API call or page error recorded',
    );
    parts.push(...journal.map((line) => `    ${line}`));
    for (const [request, since] of waiting.get(context) ?? []) {
      parts.push(`    still waiting ${Date.now() - since} ms for ${request.method()} ${apiPath(request)}`);
    }
  }
  return parts.length > 0 ? `What the browsers showed at ${clock()}:\n${parts.join('\n')}` : '';
}
