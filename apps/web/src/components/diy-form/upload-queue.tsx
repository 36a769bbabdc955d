import { CameraOutlined } from '@ant-design/icons';
import type { UploadedFile } from '@shuzhi/contracts/user-center';
import { Progress, Typography, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { diyFormApi } from './diy-form.api.ts';
import { compressImage, IMAGE_COMPRESSION } from './image-compress.ts';

/** An upload under way: being made smaller (images: percent null), then sent (percent). */
type Pending = { key: number; name: string; percent: number | null };
let nextPending = 1;

/**
 * The uploads of one file field (issue 22 §3): an image is compressed first (`compressImage`; `jpegAllowed` false
 * keeps the original), then sent to `POST /api/sysFile/uploadFile` with its percent; a failure is told by name.
 * The list of uploads under way drives `UploadProgress`.
 */
export function useUploadQueue(
  kind: 'attachment' | 'image',
  jpegAllowed: boolean,
  onSaved: (saved: UploadedFile) => void,
) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<Pending[]>([]);
  const run = async (picked: File) => {
    const key = nextPending++;
    const track = (percent: number | null) =>
      setPending((list) => list.map((p) => (p.key === key ? { ...p, percent } : p)));
    setPending((list) => [...list, { key, name: picked.name, percent: null }]);
    try {
      const file = kind === 'image' ? await compressImage(picked, IMAGE_COMPRESSION, jpegAllowed) : picked;
      track(0);
      onSaved(await diyFormApi.upload(file, file.name, track));
    } catch (error) {
      const reason = error instanceof HttpError ? error.message : String(error);
      feedback.error(t('diyFormRenderer.uploadFailed', { name: picked.name, reason }));
    } finally {
      setPending((list) => list.filter((p) => p.key !== key));
    }
  };
  return { pending, run };
}

/** Each upload under way: its name, 压缩中… or 上传中 n%, and a bar. */
export function UploadProgress({ pending, testId }: { pending: readonly Pending[]; testId?: string }) {
  const { t } = useTranslation();
  if (pending.length === 0) return null;
  return (
    <div data-testid={`${testId}-progress`} style={{ marginTop: 8, maxWidth: 360 }}>
      {pending.map((p) => (
        <div key={p.key} style={{ fontSize: 12 }}>
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: '100%' }}>
            {p.name} ·{' '}
            {p.percent === null
              ? t('diyFormRenderer.compressing')
              : t('diyFormRenderer.uploadProgress', { percent: p.percent })}
          </Typography.Text>
          <Progress
            percent={p.percent ?? 0}
            size="small"
            showInfo={false}
            status={p.percent === null ? 'normal' : 'active'}
          />
        </div>
      ))}
    </div>
  );
}

/** The square tile of an image field's pickers. */
export const tileStyle = (disabled?: boolean) =>
  ({
    width: 96,
    height: 96,
    border: '1px dashed var(--ant-color-border)',
    borderRadius: 6,
    background: 'var(--ant-color-fill-quaternary)',
    cursor: disabled ? 'not-allowed' : 'pointer',
  }) as const;

/** On a phone the camera opens straight away from its own tile (`capture`); the other tile offers the library. */
export function CameraTile(props: {
  disabled?: boolean;
  testId?: string;
  beforeUpload: UploadProps['beforeUpload'];
  onFile: (file: File) => void;
}) {
  const { t } = useTranslation();
  return (
    <Upload
      accept="image/*"
      capture="environment"
      showUploadList={false}
      disabled={props.disabled}
      beforeUpload={props.beforeUpload}
      customRequest={({ file }) => props.onFile(file as File)}
    >
      <button
        type="button"
        disabled={props.disabled}
        data-testid={`${props.testId}-camera`}
        style={tileStyle(props.disabled)}
      >
        <CameraOutlined style={{ fontSize: 20 }} />
        <div style={{ marginTop: 4, fontSize: 12 }}>{t('diyFormRenderer.takePhoto')}</div>
      </button>
    </Upload>
  );
}
