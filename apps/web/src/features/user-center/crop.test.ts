import { describe, expect, it } from 'vitest';
import { normalizeFileSrc } from '../../components/file-image/use-file-url.ts';
import {
  centredOffset,
  clampOffset,
  clampZoom,
  coverScale,
  formatBytes,
  imageProblem,
  sourceRect,
  zoomAround,
} from './crop.ts';
import { uploadForm } from './user-center.api.ts';

const VIEW = 280;
const wide = { width: 800, height: 400 };

describe('avatar crop geometry', () => {
  it('covers the viewport at zoom 1 with the short side', () => {
    expect(coverScale(wide, VIEW)).toBeCloseTo(0.7);
    expect(coverScale({ width: 100, height: 200 }, VIEW)).toBeCloseTo(2.8);
  });

  it('starts centred and crops the middle square of the original', () => {
    const scale = coverScale(wide, VIEW);
    const offset = centredOffset(wide, VIEW, scale);
    expect(offset).toEqual({ x: -140, y: 0 });
    const rect = sourceRect(offset, VIEW, scale);
    expect(rect.x).toBeCloseTo(200);
    expect(rect.y).toBeCloseTo(0);
    expect(rect.size).toBeCloseTo(400);
  });

  it('never lets a drag uncover the viewport', () => {
    const scale = coverScale(wide, VIEW);
    expect(clampOffset({ x: 50, y: 30 }, wide, VIEW, scale)).toEqual({ x: 0, y: 0 });
    expect(clampOffset({ x: -1000, y: -50 }, wide, VIEW, scale)).toEqual({ x: -280, y: 0 });
  });

  it('zooms around the centre: the centre point of the image stays put', () => {
    const from = coverScale(wide, VIEW);
    const to = from * 2;
    const before = centredOffset(wide, VIEW, from);
    const after = zoomAround(before, wide, VIEW, from, to);
    const centreBefore = sourceRect(before, VIEW, from);
    const centreAfter = sourceRect(after, VIEW, to);
    expect(centreAfter.x + centreAfter.size / 2).toBeCloseTo(centreBefore.x + centreBefore.size / 2);
    expect(centreAfter.y + centreAfter.size / 2).toBeCloseTo(centreBefore.y + centreBefore.size / 2);
    expect(centreAfter.size).toBeCloseTo(centreBefore.size / 2);
  });

  it('zooming back out stays inside the image', () => {
    const base = coverScale(wide, VIEW);
    const zoomed = { x: -900, y: -250 };
    const out = zoomAround(zoomed, wide, VIEW, base * 3, base);
    const rect = sourceRect(out, VIEW, base);
    expect(rect.x).toBeGreaterThanOrEqual(0);
    expect(rect.y).toBeGreaterThanOrEqual(0);
    expect(rect.x + rect.size).toBeLessThanOrEqual(wide.width + 1e-9);
    expect(rect.y + rect.size).toBeLessThanOrEqual(wide.height + 1e-9);
  });

  it('keeps the zoom between 1 and 4', () => {
    expect(clampZoom(0.5)).toBe(1);
    expect(clampZoom(9)).toBe(4);
    expect(clampZoom(2.5)).toBe(2.5);
  });
});

describe('choosing and sending a picture', () => {
  it('refuses other types and oversize pictures before uploading', () => {
    expect(imageProblem({ type: 'image/png', size: 10 }, 100)).toBeNull();
    expect(imageProblem({ type: 'image/jpeg', size: 100 }, 100)).toBeNull();
    expect(imageProblem({ type: 'image/webp', size: 101 }, 100)).toBe('size');
    expect(imageProblem({ type: 'image/gif', size: 1 }, 100)).toBe('type');
    expect(imageProblem({ type: 'text/plain', size: 1 }, 100)).toBe('type');
  });

  it('names limits as the server does', () => {
    expect(formatBytes(2 * 1024 * 1024)).toBe('2 MB');
    expect(formatBytes(512 * 1024)).toBe('512 KB');
  });

  it('sends the file as multipart field `file` with its name', () => {
    const form = uploadForm(new Blob([new Uint8Array([0x89, 0x50])], { type: 'image/png' }), 'avatar.png');
    const file = form.get('file') as File;
    expect(file.name).toBe('avatar.png');
    expect(file.size).toBe(2);
  });

  it('shows API files through a token fetch and other addresses as they are', () => {
    expect(normalizeFileSrc('upload/a.png')).toBe('/upload/a.png');
    expect(normalizeFileSrc('/api/sysFile/preview/1')).toBe('/api/sysFile/preview/1');
    expect(normalizeFileSrc('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    expect(normalizeFileSrc('')).toBeUndefined();
  });
});
