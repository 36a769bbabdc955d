import { DownloadOutlined, FullscreenExitOutlined, FullscreenOutlined } from '@ant-design/icons';
import { previewKindOf } from '@shuzhi/contracts/file';
import { App, Button, type ButtonProps, Modal, Result, Spin, Tooltip, theme } from 'antd';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DocumentView } from './document-view.tsx';
import { downloadPreviewFile, fetchFileBlob, isApiUrl, resolveFileUrl } from './file-url.ts';
import type { SheetModel } from './sheet-model.ts';
import { blobBytes, readWorkbook } from './sheet-model.ts';
import { SheetView } from './sheet-view.tsx';

/** A file to preview: its address (relative to the API or an absolute http link) and its name with suffix. */
export type FilePreviewTarget = { url: string; fileName: string };

type Content =
  | { state: 'loading' }
  | { state: 'pdf'; src: string }
  | { state: 'sheet'; sheets: SheetModel[] }
  | { state: 'document'; blob: Blob }
  | { state: 'failed'; title: string; detail?: string };

const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : undefined);

/** Loads and reads the file the dialog shows; object URLs are released when the file changes or the dialog closes. */
function useContent(target: FilePreviewTarget | null): [Content, (content: Content) => void] {
  const { t } = useTranslation();
  const [content, setContent] = useState<Content>({ state: 'loading' });
  useEffect(() => {
    if (!target) return;
    const kind = previewKindOf(target.fileName);
    const resolved = resolveFileUrl(target.url);
    let live = true;
    let objectUrl: string | null = null;
    setContent({ state: 'loading' });
    const fail = (title: string) => (error: unknown) =>
      live && setContent({ state: 'failed', title, detail: errorText(error) });
    if (kind === 'pdf' && !isApiUrl(resolved)) {
      // Another host's pdf: the frame loads it directly.
      setContent({ state: 'pdf', src: resolved });
    } else {
      fetchFileBlob(resolved).then(
        async (blob) => {
          if (!live) return;
          if (kind === 'pdf') {
            objectUrl = URL.createObjectURL(
              blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }),
            );
            setContent({ state: 'pdf', src: objectUrl });
          } else if (kind === 'sheet') {
            try {
              const sheets = await readWorkbook(await blobBytes(blob));
              if (live) setContent({ state: 'sheet', sheets });
            } catch (error) {
              fail(t('filePreview.renderFailed'))(error);
            }
          } else {
            setContent({ state: 'document', blob });
          }
        },
        fail(t('filePreview.loadFailed')),
      );
    }
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [target, t]);
  return [content, setContent];
}

/**
 * The file preview dialog (SPEC §2): title 文件预览, a full-screen toggle, close and 下载文件; 80% wide,
 * content 60vh high unless full screen. pdf in a frame, xlsx/xls as sheets, docx as a document; a file that
 * cannot be rendered shows 文件渲染失败. Open it through `useFilePreview`, which also handles the types
 * that have no preview.
 */
function FilePreviewModal({ target, onClose }: { target: FilePreviewTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [fullScreen, setFullScreen] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const [content, setContent] = useContent(target);

  useEffect(() => {
    if (!target) setFullScreen(false);
  }, [target]);

  const download = async () => {
    if (!target) return;
    setDownloading(true);
    try {
      await downloadPreviewFile(target.url, target.fileName);
    } catch (error) {
      message.error(errorText(error) ?? t('filePreview.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };

  const height = fullScreen ? 'calc(100vh - 130px)' : '60vh';
  let body: ReactNode;
  switch (content.state) {
    case 'loading':
      body = (
        <div style={{ height: '100%', display: 'grid', placeItems: 'center' }}>
          <Spin tip={t('filePreview.loading')} data-testid="file-preview-loading">
            <div style={{ width: 120, height: 60 }} />
          </Spin>
        </div>
      );
      break;
    case 'pdf':
      body = (
        <iframe
          src={content.src}
          title={target?.fileName ?? ''}
          style={{ width: '100%', height: '100%', border: 0, display: 'block' }}
          data-testid="file-preview-pdf"
        />
      );
      break;
    case 'sheet':
      body = <SheetView sheets={content.sheets} />;
      break;
    case 'document':
      body = (
        <DocumentView
          data={content.blob}
          onError={(error) =>
            setContent({ state: 'failed', title: t('filePreview.renderFailed'), detail: errorText(error) })
          }
        />
      );
      break;
    case 'failed':
      body = (
        <div style={{ height: '100%', display: 'grid', placeItems: 'center' }}>
          <Result
            status="error"
            title={content.title}
            subTitle={content.detail}
            extra={
              <Button icon={<DownloadOutlined />} loading={downloading} onClick={download}>
                {t('filePreview.download')}
              </Button>
            }
            data-testid="file-preview-failed"
          />
        </div>
      );
      break;
  }

  return (
    <Modal
      open={target !== null}
      onCancel={onClose}
      destroyOnHidden
      centered={!fullScreen}
      width={fullScreen ? '100vw' : '80%'}
      style={fullScreen ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : undefined}
      styles={{
        body: { height, overflow: 'hidden', background: token.colorBgContainer },
        container: fullScreen ? { borderRadius: 0, minHeight: '100vh' } : undefined,
      }}
      closeIcon={null}
      title={
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <span
            style={{
              flex: 1,
              minWidth: 0,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {t('filePreview.title')}
            {target && (
              <span style={{ color: token.colorTextSecondary, fontWeight: 400, marginLeft: 12 }}>
                {target.fileName}
              </span>
            )}
          </span>
          <Tooltip title={fullScreen ? t('filePreview.exitFullScreen') : t('filePreview.fullScreen')}>
            <Button
              type="text"
              size="small"
              aria-label={fullScreen ? t('filePreview.exitFullScreen') : t('filePreview.fullScreen')}
              icon={fullScreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={() => setFullScreen((v) => !v)}
              data-testid="file-preview-fullscreen"
            />
          </Tooltip>
        </div>
      }
      footer={[
        <Button key="close" onClick={onClose} data-testid="file-preview-close">
          {t('filePreview.close')}
        </Button>,
        <Button
          key="download"
          type="primary"
          icon={<DownloadOutlined />}
          loading={downloading}
          onClick={download}
          data-testid="file-preview-download"
        >
          {t('filePreview.download')}
        </Button>,
      ]}
      data-testid="file-preview"
    >
      {target && body}
    </Modal>
  );
}

/**
 * Previews files from anywhere: `preview({url, fileName})` opens the dialog for pdf, xlsx, xls and docx,
 * and for any other type asks 该文件不支持预览，确定下载此文件 (提示, 确定下载 / 关闭). Render `element` once.
 */
export function useFilePreview(): { preview: (target: FilePreviewTarget) => void; element: ReactNode } {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [target, setTarget] = useState<FilePreviewTarget | null>(null);

  const preview = useCallback(
    (next: FilePreviewTarget) => {
      if (previewKindOf(next.fileName) !== 'none') {
        setTarget(next);
        return;
      }
      modal.confirm({
        title: t('filePreview.unsupportedTitle'),
        content: t('filePreview.unsupported'),
        okText: t('filePreview.confirmDownload'),
        cancelText: t('filePreview.close'),
        okButtonProps: { 'data-testid': 'file-preview-confirm-download' } as ButtonProps,
        cancelButtonProps: { 'data-testid': 'file-preview-confirm-close' } as ButtonProps,
        onOk: async () => {
          try {
            await downloadPreviewFile(next.url, next.fileName);
          } catch (error) {
            message.error(errorText(error) ?? t('filePreview.downloadFailed'));
          }
        },
      });
    },
    [modal, message, t],
  );

  const close = useCallback(() => setTarget(null), []);
  const element = useMemo(() => <FilePreviewModal target={target} onClose={close} />, [target, close]);
  return { preview, element };
}
