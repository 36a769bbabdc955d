import { randomInt } from 'node:crypto';
import { encodePng } from './png.ts';

/**
 * 5 × 7 glyphs of the captcha alphabet: digits and capitals without the look-alikes 0 O 1 I L (answers are
 * compared case-insensitively, so capitals suffice).
 */
const GLYPHS: Record<string, string> = {
  '2': '01110 10001 00001 00010 00100 01000 11111',
  '3': '11110 00001 00001 01110 00001 00001 11110',
  '4': '00010 00110 01010 10010 11111 00010 00010',
  '5': '11111 10000 11110 00001 00001 10001 01110',
  '6': '00110 01000 10000 11110 10001 10001 01110',
  '7': '11111 00001 00010 00100 01000 01000 01000',
  '8': '01110 10001 10001 01110 10001 10001 01110',
  '9': '01110 10001 10001 01111 00001 00010 01100',
  A: '01110 10001 10001 11111 10001 10001 10001',
  B: '11110 10001 10001 11110 10001 10001 11110',
  C: '01110 10001 10000 10000 10000 10001 01110',
  D: '11100 10010 10001 10001 10001 10010 11100',
  E: '11111 10000 10000 11110 10000 10000 11111',
  F: '11111 10000 10000 11110 10000 10000 10000',
  G: '01110 10001 10000 10111 10001 10001 01111',
  H: '10001 10001 10001 11111 10001 10001 10001',
  J: '00111 00010 00010 00010 00010 10010 01100',
  K: '10001 10010 10100 11000 10100 10010 10001',
  M: '10001 11011 10101 10101 10001 10001 10001',
  N: '10001 10001 11001 10101 10011 10001 10001',
  P: '11110 10001 10001 11110 10000 10000 10000',
  Q: '01110 10001 10001 10001 10101 10010 01101',
  R: '11110 10001 10001 11110 10100 10010 10001',
  S: '01111 10000 10000 01110 00001 00001 11110',
  T: '11111 00100 00100 00100 00100 00100 00100',
  U: '10001 10001 10001 10001 10001 10001 01110',
  V: '10001 10001 10001 10001 10001 01010 00100',
  W: '10001 10001 10001 10101 10101 10101 01010',
  X: '10001 10001 01010 00100 01010 10001 10001',
  Y: '10001 10001 01010 00100 00100 00100 00100',
  Z: '11111 00001 00010 00100 01000 10000 11111',
};
export const CAPTCHA_ALPHABET = Object.keys(GLYPHS).join('');

const WIDTH = 120;
const HEIGHT = 40;
const SCALE = 4;

type Rgb = [number, number, number];

class Canvas {
  readonly pixels = new Uint8Array(WIDTH * HEIGHT * 3);
  fill([r, g, b]: Rgb): void {
    for (let i = 0; i < this.pixels.length; i += 3) {
      this.pixels[i] = r;
      this.pixels[i + 1] = g;
      this.pixels[i + 2] = b;
    }
  }
  dot(x: number, y: number, [r, g, b]: Rgb): void {
    const px = Math.round(x);
    const py = Math.round(y);
    if (px < 0 || py < 0 || px >= WIDTH || py >= HEIGHT) return;
    const i = (py * WIDTH + px) * 3;
    this.pixels[i] = r;
    this.pixels[i + 1] = g;
    this.pixels[i + 2] = b;
  }
  line(x0: number, y0: number, x1: number, y1: number, colour: Rgb): void {
    const steps = Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0), 1);
    for (let s = 0; s <= steps; s++)
      this.dot(x0 + ((x1 - x0) * s) / steps, y0 + ((y1 - y0) * s) / steps, colour);
  }
}

const dark = (): Rgb => [randomInt(20, 130), randomInt(20, 130), randomInt(20, 130)];
const mid = (): Rgb => [randomInt(100, 200), randomInt(100, 200), randomInt(100, 200)];

/**
 * Draws one glyph enlarged, sheared and shifted at random, so that the letters are easy for a person and
 * not at a fixed place for a script.
 */
function drawGlyph(canvas: Canvas, glyph: string, left: number, colour: Rgb): void {
  const rows = glyph.split(' ');
  const top = randomInt(2, HEIGHT - 7 * SCALE - 2);
  const shear = randomInt(-3, 4) / 10;
  for (let row = 0; row < rows.length; row++) {
    for (let col = 0; col < 5; col++) {
      if (rows[row]?.[col] !== '1') continue;
      for (let dy = 0; dy < SCALE; dy++) {
        for (let dx = 0; dx < SCALE; dx++) {
          const y = top + row * SCALE + dy;
          const x = left + col * SCALE + dx + shear * (HEIGHT / 2 - y);
          canvas.dot(x, y, colour);
        }
      }
    }
  }
}

/** The captcha picture of `text` (letters of CAPTCHA_ALPHABET): a 120 × 40 PNG with noise lines and dots. */
export function captchaPng(text: string): Buffer {
  const canvas = new Canvas();
  canvas.fill([randomInt(225, 256), randomInt(225, 256), randomInt(225, 256)]);
  for (let i = 0; i < 60; i++) canvas.dot(randomInt(WIDTH), randomInt(HEIGHT), mid());
  const cell = Math.floor((WIDTH - 8) / text.length);
  [...text].forEach((char, i) => {
    const glyph = GLYPHS[char];
    if (!glyph) throw new Error(`no captcha glyph for ${char}`);
    drawGlyph(canvas, glyph, 4 + i * cell + randomInt(0, Math.max(1, cell - 5 * SCALE)), dark());
  });
  for (let i = 0; i < 3; i++) {
    canvas.line(randomInt(0, 20), randomInt(HEIGHT), randomInt(WIDTH - 20, WIDTH), randomInt(HEIGHT), mid());
  }
  return encodePng(WIDTH, HEIGHT, canvas.pixels);
}
