import styles from './rich-text.module.css';

/**
 * A body written with RichTextEditor, shown read-only. Only for HTML the server has sanitised (notices are
 * sanitised on save); never pass text a user typed straight in.
 */
export function RichTextView({ html, 'data-testid': testId }: { html: string; 'data-testid'?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the server's allow-list sanitiser produced this HTML.
  return <div className={styles.view} dangerouslySetInnerHTML={{ __html: html }} data-testid={testId} />;
}
