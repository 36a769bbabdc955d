import { Spin } from 'antd';
import { useLayoutEffect, useRef, useState } from 'react';
import { http } from '../../platform/http/http.ts';
import styles from './layout.module.css';

/** Below this the frame stops shrinking and the page scrolls instead. */
const MIN_HEIGHT = 360;

/**
 * Where an embedded menu page points. A relative link (SPEC §2: the job dashboard's `/schedule`) is a page of
 * the API host, so it is resolved against the API base URL the HTTP client uses; absolute links stay as they are.
 */
export function resolveFrameLink(link: string, apiBase: string | undefined): string {
  if (!link.startsWith('/') || link.startsWith('//')) return link;
  return `${(apiBase ?? '').replace(/\/+$/, '')}${link}`;
}

/**
 * The frame's height: from its top to the bottom of the window, less what the layout shows below the page
 * (padding and footer), so the page itself does not scroll and only the frame's own content does.
 */
function useFillHeight(frame: React.RefObject<HTMLIFrameElement | null>): number | undefined {
  const [height, setHeight] = useState<number>();
  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    const page = element.closest('[data-testid="page-content"]');
    const content = page?.parentElement ?? null;
    const measure = () => {
      if (element.offsetParent === null) return;
      const top = element.getBoundingClientRect().top + window.scrollY;
      const below =
        page && content ? content.getBoundingClientRect().bottom - page.getBoundingClientRect().bottom : 0;
      setHeight(Math.max(MIN_HEIGHT, Math.floor(window.innerHeight - top - below)));
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    if (content) observer?.observe(content);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [frame]);
  return height;
}

/** A menu shown as an embedded page (`isIframe` with an outLink), filling the content area. */
export function IframePage({ link, title }: { link: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const height = useFillHeight(frame);
  const [loaded, setLoaded] = useState(false);
  const src = resolveFrameLink(link, http.baseURL);
  return (
    <Spin spinning={!loaded} delay={200}>
      <iframe
        ref={frame}
        className={styles.iframe}
        src={src}
        title={title}
        onLoad={() => setLoaded(true)}
        style={{ display: 'block', ...(height === undefined ? {} : { height, minHeight: MIN_HEIGHT }) }}
        data-testid="iframe-page"
      />
    </Spin>
  );
}
