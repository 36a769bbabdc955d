import { Spin } from 'antd';
import { useRef, useState } from 'react';
import { useFillHeight } from '../../components/use-fill-height.ts';
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

/** A menu shown as an embedded page (`isIframe` with an outLink), filling the content area. */
export function IframePage({ link, title }: { link: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  // The page itself does not scroll; only the frame's own content does.
  const height = useFillHeight(frame, { min: MIN_HEIGHT });
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
