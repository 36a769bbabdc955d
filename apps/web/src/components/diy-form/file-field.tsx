import {
  DeleteOutlined,
  FileImageOutlined,
  LoadingOutlined,
  PaperClipOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { fileDownloadUrl, previewKindOf, suffixOf } from '@shuzhi/contracts/file';
import { filePreviewUrl } from '@shuzhi/contracts/user-center';
import { Button, Image, Space, Typography, Upload } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { downloadFile } from '../../platform/data/download.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { fileObjectUrl } from '../file-image/use-file-url.ts';
import { diyFormApi, type FormFile } from './diy-form.api.ts';
import { toIds } from './pickers.tsx';
import { CameraTile, tileStyle, UploadProgress, useUploadQueue } from './upload-queue.tsx';

/**
 * Attachment and image fields: files go to `POST /api/sysFile/uploadFile` one by one and the record keeps
 * their ids. Names of ids this browser did not upload come from the record's files (`listByBelong`).
 */

const IMAGE_SUFFIXES = ['png', 'jpg', 'jpeg', 'gif', 'webp'];

const infos = new Map<number, FormFile>();
const loadedRecords = new Map<number, Promise<void>>();

export function rememberFile(file: FormFile): void {
  infos.set(file.id, file);
}

/** Names of the files of the given ids (loading a saved record's files once). */
function useFileInfos(ids: readonly number[], recordId?: number | null): Map<number, FormFile> {
  const [, setTick] = useState(0);
  const missing = ids.some((id) => !infos.has(id));
  useEffect(() => {
    if (!missing || !recordId) return;
    let live = true;
    let request = loadedRecords.get(recordId);
    if (!request) {
      request = diyFormApi
        .filesOfRecord(recordId)
        .then((files) => {
          for (const file of files) rememberFile(file);
        })
        .catch(() => undefined);
      loadedRecords.set(recordId, request);
    }
    void request.then(() => live && setTick((n) => n + 1));
    return () => {
      live = false;
    };
  }, [missing, recordId]);
  const map = new Map<number, FormFile>();
  for (const id of ids) {
    const info = infos.get(id);
    if (info) map.set(id, info);
  }
  return map;
}

/** Opens a file: the preview dialog where one exists for its kind, else a download under its own name. */
export type FileOpener = (file: FormFile) => void;

const downloadStoredFile: FileOpener = (file) => {
  void downloadFile(fileDownloadUrl(file.id), file.fileName, { method: 'get' }).catch(() => undefined);
};

const canPreview = (file: FormFile) => previewKindOf(file.fileName) !== 'none';

function Thumb({ id, name, size }: { id: number; name: string; size: number }) {
  const { t } = useTranslation();
  const src = filePreviewUrl(id);
  const [state, setState] = useState<{ src: string; url: string | null; failed: boolean } | null>(null);
  useEffect(() => {
    let live = true;
    fileObjectUrl(src).then(
      (url) => live && setState({ src, url, failed: false }),
      () => live && setState({ src, url: null, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [src]);
  const current = state?.src === src ? state : null;
  if (current?.url) {
    return (
      <Image
        src={current.url}
        alt={name}
        width={size}
        height={size}
        style={{ objectFit: 'cover', borderRadius: 6 }}
      />
    );
  }
  return (
    <div
      title={current?.failed ? name : undefined}
      style={{
        width: size,
        height: size,
        display: 'grid',
        placeItems: 'center',
        background: 'var(--ant-color-fill-tertiary)',
        color: 'var(--ant-color-text-tertiary)',
        borderRadius: 6,
      }}
    >
      {current?.failed ? (
        <span style={{ textAlign: 'center', fontSize: 12 }}>
          <FileImageOutlined style={{ fontSize: 20 }} />
          <div>{t('diyFormRenderer.imageFailed')}</div>
        </span>
      ) : (
        <LoadingOutlined />
      )}
    </div>
  );
}

export type FileFieldProps = {
  kind: 'attachment' | 'image';
  value: unknown;
  onChange?: (ids: number[] | null) => void;
  accept?: readonly string[] | null;
  maxFiles?: number | null;
  recordId?: number | null;
  disabled?: boolean;
  /** View mode: links and thumbnails, no upload. */
  readOnly?: boolean;
  onOpen?: FileOpener;
  /** A phone-width form: image fields offer the camera as well as the photo library. */
  phone?: boolean;
  'data-testid'?: string;
};

export function FileField(props: FileFieldProps) {
  const { t } = useTranslation();
  const { kind, readOnly, disabled } = props;
  const ids = useMemo(() => toIds(props.value), [props.value]);
  const files = useFileInfos(ids, props.recordId);
  const max = props.maxFiles ?? 10;
  const accept = props.accept?.length ? props.accept : kind === 'image' ? IMAGE_SUFFIXES : null;
  const open = props.onOpen ?? downloadStoredFile;
  const infoOf = (id: number): FormFile =>
    files.get(id) ?? { id, fileName: t('diyFormRenderer.fileFallback', { id }) };

  // Uploads finish in any order; each adds its id to the latest list.
  const latest = useRef<number[]>(ids);
  useEffect(() => {
    latest.current = ids;
  }, [ids]);

  const remove = (id: number) => {
    const next = latest.current.filter((x) => x !== id);
    latest.current = next;
    props.onChange?.(next.length ? next : null);
  };

  const allowed = accept?.map((s) => s.toLowerCase()) ?? null;
  const accepted = (file: File) => {
    const suffix = suffixOf(file.name);
    return !allowed || allowed.includes(suffix) || (suffix === 'jpeg' && allowed.includes('jpg'));
  };

  const beforeUpload = (file: File, batch: File[]) => {
    if (!accepted(file)) {
      feedback.error(t('diyFormRenderer.wrongType', { name: file.name, types: (allowed ?? []).join(', ') }));
      return Upload.LIST_IGNORE;
    }
    // Files of the batch beyond the maximum are left out, with one message for the batch.
    const position = batch.filter(accepted).indexOf(file);
    const room = max - latest.current.length;
    if (position >= room) {
      if (position === room) feedback.error(t('diyFormRenderer.tooManyFiles', { max }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };

  const jpegAllowed = !allowed || allowed.includes('jpg') || allowed.includes('jpeg');
  const queue = useUploadQueue(kind, jpegAllowed, (saved) => {
    rememberFile({ id: saved.id, fileName: saved.fileName, suffix: saved.suffix, size: saved.size });
    const next = [...latest.current, saved.id];
    latest.current = next;
    props.onChange?.(next);
  });
  const uploading = queue.pending.length;
  const upload = queue.run;
  const progress = <UploadProgress pending={queue.pending} testId={props['data-testid']} />;
  const camera =
    !readOnly && kind === 'image' && props.phone && ids.length < max ? (
      <CameraTile
        disabled={disabled}
        testId={props['data-testid']}
        beforeUpload={beforeUpload}
        onFile={(file) => void upload(file)}
      />
    ) : null;

  const picker =
    !readOnly && ids.length < max ? (
      <Upload
        multiple={max - ids.length > 1}
        accept={accept?.map((s) => `.${s}`).join(',')}
        showUploadList={false}
        disabled={disabled}
        beforeUpload={beforeUpload}
        customRequest={({ file }) => void upload(file as File)}
      >
        {kind === 'image' ? (
          <button
            type="button"
            disabled={disabled}
            data-testid={`${props['data-testid']}-upload`}
            style={tileStyle(disabled)}
          >
            {uploading ? <LoadingOutlined /> : <PlusOutlined />}
            <div style={{ marginTop: 4, fontSize: 12 }}>
              {uploading ? t('diyFormRenderer.uploading') : t('diyFormRenderer.uploadImage')}
            </div>
          </button>
        ) : (
          <Button
            icon={uploading ? <LoadingOutlined /> : <UploadOutlined />}
            disabled={disabled}
            data-testid={`${props['data-testid']}-upload`}
          >
            {uploading ? t('diyFormRenderer.uploading') : t('diyFormRenderer.uploadFile')}
          </Button>
        )}
      </Upload>
    ) : null;

  const hint =
    !readOnly && accept ? (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('diyFormRenderer.acceptHint', { types: accept.join(', ') })}
        {max ? ` · ${t('diyFormRenderer.tooManyFiles', { max })}` : ''}
      </Typography.Text>
    ) : null;

  if (readOnly && ids.length === 0) return <>{t('diyFormRenderer.empty')}</>;

  if (kind === 'image') {
    return (
      <div data-testid={props['data-testid']}>
        <Space wrap size={8} align="start">
          <Image.PreviewGroup>
            {ids.map((id) => (
              <div key={id} style={{ position: 'relative' }} data-testid="diy-image-item">
                <Thumb id={id} name={infoOf(id).fileName} size={96} />
                {!readOnly && !disabled ? (
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('diyFormRenderer.remove')}
                    onClick={() => remove(id)}
                    style={{ position: 'absolute', top: 2, right: 2, background: 'rgba(255,255,255,.85)' }}
                  />
                ) : null}
              </div>
            ))}
          </Image.PreviewGroup>
          {camera}
          {picker}
        </Space>
        {progress}
        {hint ? <div>{hint}</div> : null}
      </div>
    );
  }

  return (
    <div data-testid={props['data-testid']}>
      {picker}
      {ids.length > 0 ? (
        <ul style={{ listStyle: 'none', padding: 0, margin: picker ? '8px 0 0' : 0 }}>
          {ids.map((id) => {
            const info = infoOf(id);
            return (
              <li
                key={id}
                style={{ display: 'flex', alignItems: 'center', gap: 6 }}
                data-testid="diy-file-item"
              >
                <PaperClipOutlined style={{ color: 'var(--ant-color-text-tertiary)' }} />
                <Typography.Link
                  onClick={() => open(info)}
                  title={canPreview(info) ? t('diyFormRenderer.preview') : t('diyFormRenderer.download')}
                  ellipsis
                >
                  {info.fileName}
                </Typography.Link>
                {!readOnly && !disabled ? (
                  <Button
                    size="small"
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('diyFormRenderer.remove')}
                    onClick={() => remove(id)}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {progress}
      {hint ? <div>{hint}</div> : null}
    </div>
  );
}
