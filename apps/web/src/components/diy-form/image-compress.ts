import { suffixOf } from '@shuzhi/contracts/file';

/**
 * Photos are made smaller in the browser before they are uploaded (issue 22 §3): a phone's 12-megapixel
 * photo of 4–6 MB becomes a JPEG of its longest edge `maxEdge` at `quality`, a few hundred KB, which a weak
 * signal can carry. A file already small (both under `keepBelow` bytes and within `maxEdge`) is kept as it is,
 * and so is one the browser cannot decode (HEIC on most desktops), a GIF (it may move) or a result that is
 * no smaller than the original.
 */
export const IMAGE_COMPRESSION = { maxEdge: 1920, quality: 0.82, keepBelow: 400 * 1024 } as const;
export type CompressOptions = { maxEdge: number; quality: number; keepBelow: number };

const COMPRESSIBLE = new Set(['jpg', 'jpeg', 'png', 'webp', 'bmp']);

type Decoded = { source: CanvasImageSource; width: number; height: number; close: () => void };

/** The image decoded upright (EXIF orientation applied), or null when the browser cannot read it. */
async function decode(file: Blob): Promise<Decoded | null> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
    } catch {
      // Fall through to an <img>, which some browsers decode where createImageBitmap does not.
    }
  }
  if (typeof URL.createObjectURL !== 'function') return null;
  const url = URL.createObjectURL(file);
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const width = image.naturalWidth;
    const height = image.naturalHeight;
    return width > 0 && height > 0 ? { source: image, width, height, close: () => undefined } : null;
  } catch {
    return null;
  } finally {
    URL.revokeObjectURL(url);
  }
}

const toBlob = (canvas: HTMLCanvasElement, quality: number) =>
  new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));

/** `现场.png` → `现场.jpg`. */
const jpegName = (name: string) => `${name.replace(/\.[^./\\]*$/, '') || 'photo'}.jpg`;

/**
 * The file to upload for a picked image: the original, or a smaller JPEG of it. `allowJpeg` false (a field
 * that takes only PNG, say) keeps the original whatever its size.
 */
export async function compressImage(
  file: File,
  options: CompressOptions = IMAGE_COMPRESSION,
  allowJpeg = true,
): Promise<File> {
  if (!allowJpeg || !COMPRESSIBLE.has(suffixOf(file.name))) return file;
  const decoded = await decode(file);
  if (!decoded) return file;
  try {
    const longest = Math.max(decoded.width, decoded.height);
    if (file.size <= options.keepBelow && longest <= options.maxEdge) return file;
    const scale = Math.min(1, options.maxEdge / longest);
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(decoded.width * scale));
    canvas.height = Math.max(1, Math.round(decoded.height * scale));
    const context = canvas.getContext('2d');
    if (!context) return file;
    // Transparent parts of a PNG become white, not black, in the JPEG.
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(decoded.source, 0, 0, canvas.width, canvas.height);
    const blob = await toBlob(canvas, options.quality);
    if (!blob || blob.size === 0 || blob.size >= file.size) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } finally {
    decoded.close();
  }
}
