import { type ReactNode, Suspense, useRef } from 'react';
import { useLocation, useOutlet } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { useTagsStore } from '../tags/tags.store.ts';

type Cached = { element: ReactNode; nonce: number };

/**
 * Pages marked keep-alive stay mounted (hidden) while another tab is shown, so their state survives tab
 * switches. Closing the tab drops them; "refresh" remounts them.
 */
export function KeepAliveOutlet({ isKeepAlive }: { isKeepAlive: (pathname: string) => boolean }) {
  const outlet = useOutlet();
  const { pathname } = useLocation();
  const nonces = useTagsStore((state) => state.nonces);
  const tags = useTagsStore((state) => state.tags);
  const cache = useRef(new Map<string, Cached>());

  const nonce = nonces[pathname] ?? 0;
  const alive = isKeepAlive(pathname);
  const entries = cache.current;
  if (alive) {
    const cached = entries.get(pathname);
    if (!cached || cached.nonce !== nonce) entries.set(pathname, { element: outlet, nonce });
  }
  for (const key of Array.from(entries.keys())) {
    if (key !== pathname && (!tags.some((tag) => tag.path === key) || !isKeepAlive(key))) entries.delete(key);
  }

  return (
    <>
      {Array.from(entries.entries()).map(([key, entry]) => (
        <div
          key={`${key}#${entry.nonce}`}
          style={key === pathname ? undefined : { display: 'none' }}
          data-keep-alive={key}
        >
          <Suspense fallback={<PageLoading />}>{entry.element}</Suspense>
        </div>
      ))}
      {alive ? null : (
        <div key={`${pathname}#${nonce}`}>
          <Suspense fallback={<PageLoading />}>{outlet}</Suspense>
        </div>
      )}
    </>
  );
}
