import { useEffect, useState } from 'react';
import { http } from '../../platform/http/http.ts';

/** SPEC §3: a relative path gets a leading slash; absolute links and data URLs are used as they are. */
export function normalizeFileSrc(src: string | null | undefined): string | undefined {
  if (!src) return undefined;
  if (/^(https?:|data:|blob:|\/)/.test(src)) return src;
  return `/${src}`;
}

/** Stored files are served to signed-in users only, so an <img> cannot load them without the token. */
const needsToken = (src: string) => src.startsWith('/api/');

// One fetch per address for the whole app: the header and the user centre show the same avatar. An
// address names one stored file for good (a new upload gets a new id), so the object URL never goes stale.
const objectUrls = new Map<string, Promise<string>>();

export function fileObjectUrl(src: string): Promise<string> {
  let pending = objectUrls.get(src);
  if (!pending) {
    pending = http
      .request<{ blob: Blob }>(
        {
          method: 'get',
          url: src,
          responseType: 'blob',
          // Wrapped so the envelope rules pass the bytes through.
          transformResponse: (data: Blob) => ({ blob: data }),
        },
        { silent: true },
      )
      .then(({ blob }) => {
        if (!blob.type.startsWith('image/')) throw new Error('not an image');
        return URL.createObjectURL(blob);
      });
    pending.catch(() => objectUrls.delete(src));
    objectUrls.set(src, pending);
  }
  return pending;
}

/**
 * The address to put into an <img>: as is for public addresses, an object URL of the authenticated fetch
 * for files served by the API; undefined while loading or when it failed (the caller shows its fallback).
 */
export function useFileUrl(src: string | null | undefined): string | undefined {
  const normal = normalizeFileSrc(src);
  const direct = normal && !needsToken(normal) ? normal : undefined;
  const [loaded, setLoaded] = useState<{ src: string; url: string } | null>(null);
  useEffect(() => {
    if (!normal || !needsToken(normal)) return;
    let live = true;
    fileObjectUrl(normal).then(
      (url) => live && setLoaded({ src: normal, url }),
      () => live && setLoaded(null),
    );
    return () => {
      live = false;
    };
  }, [normal]);
  if (direct) return direct;
  return loaded && loaded.src === normal ? loaded.url : undefined;
}
