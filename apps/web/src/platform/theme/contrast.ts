/**
 * WCAG 2 contrast arithmetic for the theme: the primary colour a person picks (SPEC §3, #0184FE by default) is
 * a bright blue that reads at only 3.66:1 on white, below the 4.5:1 that text of normal size needs (WCAG 1.4.3).
 * Text in that colour, and white labels on fills of it, take a darker shade of the same hue instead.
 */

type Rgb = [number, number, number];

function parseHex(color: string): Rgb {
  const hex = color.trim().replace(/^#/, '');
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex.slice(0, 6);
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`Not a #rrggbb colour: ${color}`);
  return [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) =>
  `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;

/** WCAG 2 relative luminance of a #rrggbb colour. */
export function luminance(color: string): number {
  const [r, g, b] = parseHex(color).map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two #rrggbb colours, from 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function toHsl([r, g, b]: Rgb): Rgb {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const min = Math.min(rr, gg, bb);
  const lightness = (max + min) / 2;
  if (max === min) return [0, 0, lightness];
  const delta = max - min;
  const saturation = lightness > 0.5 ? delta / (2 - max - min) : delta / (max + min);
  const hue =
    max === rr
      ? (gg - bb) / delta + (gg < bb ? 6 : 0)
      : max === gg
        ? (bb - rr) / delta + 2
        : (rr - gg) / delta + 4;
  return [hue / 6, saturation, lightness];
}

function fromHsl([hue, saturation, lightness]: Rgb): Rgb {
  if (saturation === 0) return [lightness * 255, lightness * 255, lightness * 255];
  const q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation;
  const p = 2 * lightness - q;
  const channel = (t: number) => {
    const x = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (x < 1 / 6) return p + (q - p) * 6 * x;
    if (x < 1 / 2) return q;
    if (x < 2 / 3) return p + (q - p) * (2 / 3 - x) * 6;
    return p;
  };
  return [channel(hue + 1 / 3) * 255, channel(hue) * 255, channel(hue - 1 / 3) * 255];
}

/**
 * The colour itself when it reads at `ratio` against every one of `backgrounds`; else the lightest darker
 * shade of its hue and saturation (HSL lightness lowered step by step) that does. Black at worst.
 */
export function readableShade(color: string, backgrounds: readonly string[], ratio = 4.5): string {
  const reads = (candidate: string) => backgrounds.every((bg) => contrastRatio(candidate, bg) >= ratio);
  const own = toHex(parseHex(color));
  if (reads(own)) return own;
  const [hue, saturation, lightness] = toHsl(parseHex(color));
  for (let step = Math.floor(lightness * 200); step >= 0; step--) {
    const candidate = toHex(fromHsl([hue, saturation, step / 200]));
    if (reads(candidate)) return candidate;
  }
  return '#000000';
}
