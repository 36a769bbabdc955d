import { theme } from 'antd';
import { useEffect, useRef } from 'react';

/**
 * A .docx drawn by `docx-preview` (loaded on first use as its own chunk) into a scrollable page area.
 * `onError` is called when the document cannot be rendered, `onReady` once it is drawn.
 */
export function DocumentView({
  data,
  onError,
  onReady,
}: {
  data: Blob;
  onError: (error: unknown) => void;
  onReady?: () => void;
}) {
  const { token } = theme.useToken();
  const host = useRef<HTMLDivElement>(null);
  const styles = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onError, onReady });
  handlers.current = { onError, onReady };

  useEffect(() => {
    let live = true;
    const body = host.current;
    const head = styles.current;
    if (!body || !head) return;
    import('docx-preview')
      .then(({ renderAsync }) =>
        renderAsync(data, body, head, {
          className: 'docx',
          inWrapper: true,
          breakPages: true,
          ignoreLastRenderedPageBreak: true,
          experimental: false,
          useBase64URL: true,
        }),
      )
      .then(
        () => live && handlers.current.onReady?.(),
        (error: unknown) => live && handlers.current.onError(error),
      );
    return () => {
      live = false;
      body.replaceChildren();
      head.replaceChildren();
    };
  }, [data]);

  return (
    <div
      style={{ height: '100%', overflow: 'auto', background: token.colorFillSecondary }}
      data-testid="file-preview-document"
    >
      <div ref={styles} />
      <div ref={host} />
    </div>
  );
}
