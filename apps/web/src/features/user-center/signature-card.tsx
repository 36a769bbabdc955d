import { EditOutlined, UploadOutlined } from '@ant-design/icons';
import { SIGNATURE_MAX_BYTES } from '@shuzhi/contracts/user-center';
import { Button, Empty, Flex, Image, Modal, Space, Spin, Typography, theme, Upload } from 'antd';
import { type PointerEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFileUrl } from '../../components/file-image/use-file-url.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { formatBytes, imageProblem } from './crop.ts';

const PAD_WIDTH = 480;
const PAD_HEIGHT = 180;

/** A pad to write a signature with mouse, pen or finger; gives a transparent PNG. */
function SignaturePad({
  open,
  saving,
  onCancel,
  onDone,
}: {
  open: boolean;
  saving: boolean;
  onCancel: () => void;
  onDone: (blob: Blob) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const canvas = useRef<HTMLCanvasElement | null>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const [inked, setInked] = useState(false);

  const point = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    return {
      x: ((event.clientX - rect.left) * PAD_WIDTH) / rect.width,
      y: ((event.clientY - rect.top) * PAD_HEIGHT) / rect.height,
    };
  };
  const draw = (to: { x: number; y: number }) => {
    const context = canvas.current?.getContext('2d');
    const from = last.current;
    if (!context || !from) return;
    context.strokeStyle = '#1f1f1f';
    context.lineWidth = 2.5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.beginPath();
    context.moveTo(from.x, from.y);
    context.lineTo(to.x, to.y);
    context.stroke();
    last.current = to;
    setInked(true);
  };
  const clear = () => {
    canvas.current?.getContext('2d')?.clearRect(0, 0, PAD_WIDTH, PAD_HEIGHT);
    setInked(false);
  };
  const done = () => {
    if (!inked) {
      feedback.warning(t('userProfile.drawEmpty'));
      return;
    }
    canvas.current?.toBlob((blob) => blob && onDone(blob), 'image/png');
  };

  return (
    <Modal
      open={open}
      title={t('userProfile.drawTitle')}
      width={PAD_WIDTH + 48}
      onCancel={onCancel}
      afterOpenChange={(visible) => visible || setInked(false)}
      destroyOnHidden
      mask={{ closable: false }}
      footer={[
        <Button key="clear" onClick={clear}>
          {t('userProfile.clear')}
        </Button>,
        <Button key="cancel" onClick={onCancel}>
          {t('common.cancel')}
        </Button>,
        <Button key="ok" type="primary" loading={saving} onClick={done} data-testid="signature-pad-ok">
          {t('common.ok')}
        </Button>,
      ]}
    >
      <Typography.Paragraph type="secondary">{t('userProfile.drawHint')}</Typography.Paragraph>
      <canvas
        ref={canvas}
        width={PAD_WIDTH}
        height={PAD_HEIGHT}
        data-testid="signature-pad"
        style={{
          width: '100%',
          maxWidth: PAD_WIDTH,
          border: `1px dashed ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          touchAction: 'none',
          cursor: 'crosshair',
          background: token.colorBgContainer,
        }}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          last.current = point(event);
          draw({ x: last.current.x + 0.1, y: last.current.y + 0.1 });
        }}
        onPointerMove={(event) => last.current && draw(point(event))}
        onPointerUp={() => {
          last.current = null;
        }}
        onPointerCancel={() => {
          last.current = null;
        }}
      />
    </Modal>
  );
}

/** The electronic signature: the current image, an upload and a pad to write one. */
export function SignatureCard({
  signature,
  onUpload,
}: {
  signature: string | null | undefined;
  onUpload: (blob: Blob, fileName: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const src = useFileUrl(signature);
  const [padOpen, setPadOpen] = useState(false);
  const [saving, setSaving] = useState(false);

  const save = async (blob: Blob, fileName: string) => {
    setSaving(true);
    try {
      await onUpload(blob, fileName);
      setPadOpen(false);
    } catch {
      // The HTTP client showed the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid="signature-card">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('userProfile.signatureTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('userProfile.signatureHint')}</Typography.Paragraph>
      <Flex
        align="center"
        justify="center"
        style={{
          height: 140,
          maxWidth: 420,
          border: `1px dashed ${token.colorBorder}`,
          borderRadius: token.borderRadius,
          background: token.colorFillQuaternary,
          marginBottom: 12,
        }}
      >
        {signature ? (
          src ? (
            <Image
              src={src}
              alt={t('userProfile.signatureTitle')}
              height={120}
              data-testid="signature-image"
            />
          ) : (
            <Spin />
          )
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('userProfile.signatureNone')} />
        )}
      </Flex>
      <Space wrap>
        <Upload
          accept="image/png,image/jpeg,image/webp"
          showUploadList={false}
          beforeUpload={(file) => {
            const problem = imageProblem(file, SIGNATURE_MAX_BYTES);
            if (problem === 'type') feedback.error(t('userProfile.imageType'));
            else if (problem === 'size')
              feedback.error(t('userProfile.imageSize', { max: formatBytes(SIGNATURE_MAX_BYTES) }));
            else void save(file, file.name);
            return Upload.LIST_IGNORE;
          }}
        >
          <Button icon={<UploadOutlined />} loading={saving && !padOpen} data-testid="signature-upload">
            {t('userProfile.uploadSignature')}
          </Button>
        </Upload>
        <Button icon={<EditOutlined />} onClick={() => setPadOpen(true)} data-testid="signature-draw">
          {t('userProfile.drawSignature')}
        </Button>
      </Space>
      <SignaturePad
        open={padOpen}
        saving={saving}
        onCancel={() => setPadOpen(false)}
        onDone={(blob) => void save(blob, 'signature.png')}
      />
    </div>
  );
}
