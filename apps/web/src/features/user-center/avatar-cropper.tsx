import { type ButtonProps, Flex, Modal, Slider, Space, Typography, theme } from 'antd';
import { type PointerEvent, useRef, useState, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  centredOffset,
  clampOffset,
  clampZoom,
  coverScale,
  MAX_ZOOM,
  MIN_ZOOM,
  type Point,
  renderCrop,
  type Size,
  sourceRect,
  zoomAround,
} from './crop.ts';

const VIEW = 280;
/** Avatars are stored at this size: sharp on high-density screens, small on disk. */
const AVATAR_OUTPUT = 256;
const PREVIEWS = [96, 48];

type Props = {
  /** An object URL of the chosen picture; null closes the dialog. */
  src: string | null;
  saving: boolean;
  onCancel: () => void;
  onCropped: (blob: Blob) => void;
};

/** Square crop with drag to pan and slider or wheel to zoom; the result is a PNG of AVATAR_OUTPUT pixels. */
export function AvatarCropper({ src, saving, onCancel, onCropped }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const image = useRef<HTMLImageElement | null>(null);
  const [size, setSize] = useState<Size | null>(null);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState<Point>({ x: 0, y: 0 });
  const drag = useRef<{ start: Point; from: Point } | null>(null);

  const scale = size ? coverScale(size, VIEW) * zoom : 1;

  const onLoad = () => {
    const img = image.current;
    if (!img) return;
    const natural = { width: img.naturalWidth, height: img.naturalHeight };
    setSize(natural);
    setZoom(1);
    setOffset(centredOffset(natural, VIEW, coverScale(natural, VIEW)));
  };

  const changeZoom = (next: number) => {
    if (!size) return;
    const to = clampZoom(next);
    const base = coverScale(size, VIEW);
    setOffset((current) => zoomAround(current, size, VIEW, base * zoom, base * to));
    setZoom(to);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { start: { x: event.clientX, y: event.clientY }, from: offset };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const current = drag.current;
    if (!current || !size) return;
    const next = {
      x: current.from.x + event.clientX - current.start.x,
      y: current.from.y + event.clientY - current.start.y,
    };
    setOffset(clampOffset(next, size, VIEW, scale));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) =>
    changeZoom(zoom * (event.deltaY < 0 ? 1.1 : 1 / 1.1));

  const confirm = async () => {
    if (!image.current || !size) return;
    onCropped(await renderCrop(image.current, sourceRect(offset, VIEW, scale), AVATAR_OUTPUT));
  };

  const picture = (box: number) =>
    size && src ? (
      <img
        src={src}
        alt=""
        draggable={false}
        style={{
          position: 'absolute',
          left: (offset.x * box) / VIEW,
          top: (offset.y * box) / VIEW,
          width: (size.width * scale * box) / VIEW,
          height: (size.height * scale * box) / VIEW,
          maxWidth: 'none',
          userSelect: 'none',
          pointerEvents: 'none',
        }}
      />
    ) : null;

  return (
    <Modal
      open={src !== null}
      title={t('userProfile.cropTitle')}
      width={520}
      onCancel={onCancel}
      onOk={confirm}
      okButtonProps={{ disabled: !size, loading: saving, 'data-testid': 'avatar-crop-ok' } as ButtonProps}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Typography.Paragraph type="secondary">{t('userProfile.cropHint')}</Typography.Paragraph>
      <Flex gap={24} align="flex-start">
        <div
          data-testid="avatar-crop-area"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onWheel={onWheel}
          style={{
            position: 'relative',
            width: VIEW,
            height: VIEW,
            overflow: 'hidden',
            cursor: 'move',
            touchAction: 'none',
            background: token.colorFillTertiary,
            borderRadius: token.borderRadius,
          }}
        >
          {/* Loaded once off-screen for its natural size and as the canvas source. */}
          {src ? <img ref={image} src={src} alt="" onLoad={onLoad} style={{ display: 'none' }} /> : null}
          {picture(VIEW)}
          {/* The round mask shows what the header will show. */}
          <div
            style={{
              position: 'absolute',
              inset: 0,
              borderRadius: '50%',
              boxShadow: '0 0 0 999px rgba(0, 0, 0, 0.45)',
              pointerEvents: 'none',
            }}
          />
        </div>
        <Space orientation="vertical" align="center" size={12}>
          <Typography.Text type="secondary">{t('userProfile.preview')}</Typography.Text>
          {PREVIEWS.map((box) => (
            <div
              key={box}
              style={{
                position: 'relative',
                width: box,
                height: box,
                overflow: 'hidden',
                borderRadius: '50%',
                background: token.colorFillTertiary,
              }}
            >
              {picture(box)}
            </div>
          ))}
        </Space>
      </Flex>
      <Flex align="center" gap={12} style={{ marginTop: 16, width: VIEW }}>
        <Typography.Text type="secondary">{t('userProfile.zoom')}</Typography.Text>
        <Slider
          style={{ flex: 1 }}
          min={MIN_ZOOM}
          max={MAX_ZOOM}
          step={0.01}
          value={zoom}
          onChange={changeZoom}
          tooltip={{ formatter: (value) => `${Math.round((value ?? 1) * 100)}%` }}
          disabled={!size}
        />
      </Flex>
    </Modal>
  );
}
