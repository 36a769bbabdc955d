import { feedback } from '../feedback/feedback.ts';
import { http } from '../http/http.ts';
import { refusalOf } from '../http/http-client.ts';
import { i18n } from '../i18n/i18n.ts';

/** `filename*=UTF-8''…` wins over `filename="…"` (RFC 6266); null when the header names none. */
function fileNameFromDisposition(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const star = /filename\*\s*=\s*(?:UTF-8'[^']*')?([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      return star[1].trim();
    }
  }
  const plain = /filename\s*=\s*("?)([^";]+)\1/i.exec(header);
  return plain ? plain[2].trim() : null;
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 1000);
}

type Downloaded = { blob: Blob; disposition: unknown; contentType: string };

export type DownloadOptions = {
  method?: 'get' | 'post';
  /** JSON body for POST, query for GET. */
  body?: unknown;
  /** Receives 0–100 while the file arrives (when the server sends a length), else null; and the bytes so far. */
  onProgress?: (percent: number | null, loaded: number) => void;
};

/**
 * The download helper of SPEC §7 (url + fileName): fetches through the HTTP client, so tokens, refresh
 * and 401 handling apply, and saves the answer under the server's file name, else `fileName`. A JSON
 * answer instead of a file is an envelope error and is shown like any other.
 */
export async function downloadFile(url: string, fileName: string, options: DownloadOptions = {}) {
  const { method = 'post', body, onProgress } = options;
  const result = await http.request<Downloaded>({
    method,
    url,
    data: body,
    responseType: 'blob',
    // Wrapped so the envelope rules pass the file through with its headers.
    transformResponse: (data: Blob, headers) => ({
      blob: data,
      disposition: headers?.['content-disposition'],
      contentType: String(headers?.['content-type'] ?? ''),
    }),
    onDownloadProgress: (event) => {
      onProgress?.(event.total ? Math.round((event.loaded / event.total) * 100) : null, event.loaded);
    },
  });
  if (result.contentType.includes('json')) {
    const refusal = refusalOf(await result.blob.text(), i18n.t('crud.exportFailed'));
    feedback.error(refusal.message);
    throw refusal;
  }
  const name = fileNameFromDisposition(result.disposition) ?? fileName;
  saveBlob(result.blob, name);
  return name;
}
