import { downloadFile, saveBlob } from '../../platform/data/download.ts';
import { http } from '../../platform/http/http.ts';
import { HttpError, refusalOf } from '../../platform/http/http-client.ts';

/** The configured API base URL (`VITE_API_URL`), without a trailing slash; '' when the API is same-origin. */
const apiBaseUrl = (): string => String(import.meta.env.VITE_API_URL ?? '').replace(/\/+$/, '');

const ABSOLUTE = /^https?:\/\//i;

/**
 * SPEC §2: a relative file path is prefixed with the configured API base URL; absolute http(s) links are
 * used as they are.
 */
export function resolveFileUrl(url: string, base: string = apiBaseUrl()): string {
  const trimmed = url.trim();
  if (ABSOLUTE.test(trimmed) || /^(blob|data):/i.test(trimmed)) return trimmed;
  const root = base.replace(/\/+$/, '');
  return `${root}/${trimmed.replace(/^\/+/, '')}`;
}

/** Whether an address is served by this API (relative, or under the API base): then the token goes along. */
export function isApiUrl(resolved: string, base: string = apiBaseUrl()): boolean {
  if (!ABSOLUTE.test(resolved)) return true;
  const root = base.replace(/\/+$/, '');
  return Boolean(root) && ABSOLUTE.test(root) && (resolved === root || resolved.startsWith(`${root}/`));
}

/**
 * The bytes of a file to preview: API files through the HTTP client (token, refresh, 401 rules, errors
 * answered as envelopes become an HttpError with the server's message); other links with a plain fetch,
 * so no token leaves for another host.
 */
export async function fetchFileBlob(url: string): Promise<Blob> {
  const resolved = resolveFileUrl(url);
  if (!isApiUrl(resolved)) {
    const response = await fetch(resolved);
    if (!response.ok) throw new HttpError(response.statusText || String(response.status), response.status);
    return response.blob();
  }
  const { blob } = await http.request<{ blob: Blob }>(
    {
      method: 'get',
      url: resolved,
      responseType: 'blob',
      // Wrapped so the envelope rules pass the bytes through.
      transformResponse: (data: Blob) => ({ blob: data }),
    },
    { silent: true },
  );
  if (blob.type.includes('json')) throw refusalOf(await blob.text(), 'error');
  return blob;
}

/**
 * Saves a previewed file: API files through the download helper (url + fileName); a link to another host
 * is fetched without the token and saved under `fileName`.
 */
export async function downloadPreviewFile(url: string, fileName: string): Promise<void> {
  const resolved = resolveFileUrl(url);
  if (isApiUrl(resolved)) {
    await downloadFile(resolved, fileName, { method: 'get' });
    return;
  }
  saveBlob(await fetchFileBlob(resolved), fileName);
}
