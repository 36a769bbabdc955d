/**
 * Square crop of an image shown in a square viewport of `view` pixels: the image covers the viewport at
 * zoom 1 and is panned by dragging. Offsets are the image's top-left corner relative to the viewport's.
 */
export type Point = { x: number; y: number };
export type Size = { width: number; height: number };

export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;

/** The scale at which the image just covers the viewport. */
export function coverScale(image: Size, view: number): number {
  return Math.max(view / image.width, view / image.height);
}

/** Keeps the viewport fully covered: no empty band at any edge. */
export function clampOffset(offset: Point, image: Size, view: number, scale: number): Point {
  const minX = view - image.width * scale;
  const minY = view - image.height * scale;
  return {
    x: Math.min(0, Math.max(minX, offset.x)),
    y: Math.min(0, Math.max(minY, offset.y)),
  };
}

/** The image centred in the viewport at `scale`. */
export function centredOffset(image: Size, view: number, scale: number): Point {
  return { x: (view - image.width * scale) / 2, y: (view - image.height * scale) / 2 };
}

/** Zooming keeps the image point under the viewport's centre where it is. */
export function zoomAround(offset: Point, image: Size, view: number, from: number, to: number): Point {
  const centre = view / 2;
  const x = centre - ((centre - offset.x) / from) * to;
  const y = centre - ((centre - offset.y) / from) * to;
  return clampOffset({ x, y }, image, view, to);
}

export const clampZoom = (zoom: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

/** The square of the original image that the viewport shows, in image pixels. */
export function sourceRect(
  offset: Point,
  view: number,
  scale: number,
): { x: number; y: number; size: number } {
  return { x: -offset.x / scale, y: -offset.y / scale, size: view / scale };
}

export type ImageProblem = 'type' | 'size';
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * A first check in the browser so the user hears at once; the server checks the bytes again and has the
 * last word (a renamed text file passes here and is refused there).
 */
export function imageProblem(file: { type: string; size: number }, maxBytes: number): ImageProblem | null {
  if (!IMAGE_TYPES.includes(file.type)) return 'type';
  if (file.size > maxBytes) return 'size';
  return null;
}

/** Draws the crop onto a square canvas of `output` pixels and encodes it as PNG. */
export function renderCrop(
  image: CanvasImageSource,
  rect: { x: number; y: number; size: number },
  output: number,
): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = output;
  canvas.height = output;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('canvas 2d unavailable'));
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, rect.x, rect.y, rect.size, rect.size, 0, 0, output, output);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))), 'image/png'),
  );
}

/** 2 MB, 512 KB: the sizes the server names in its refusals. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} B`;
}
