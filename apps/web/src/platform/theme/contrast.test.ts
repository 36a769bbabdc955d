import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { accessibleTheme } from './accessible-theme.ts';
import { contrastRatio, luminance, readableShade } from './contrast.ts';
import { PRIMARY_PRESETS } from './theme.store.ts';

/** The hue (degrees) of a #rrggbb colour. */
function hue(color: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(color.slice(at, at + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const delta = max - Math.min(r, g, b);
  const h = max === r ? ((g - b) / delta) % 6 : max === g ? (b - r) / delta + 2 : (r - g) / delta + 4;
  return (h * 60 + 360) % 360;
}

describe('WCAG contrast arithmetic', () => {
  it('measures luminance and contrast as WCAG 2 defines them', () => {
    expect(luminance('#ffffff')).toBeCloseTo(1, 6);
    expect(luminance('#000')).toBe(0);
    expect(contrastRatio('#000000', '#FFFFFF')).toBeCloseTo(21, 6);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The SPEC's default primary on white, and antd's 45 % black (#8c8c8c): as axe measures them.
    expect(contrastRatio('#0184FE', '#ffffff')).toBeCloseTo(3.66, 2);
    expect(contrastRatio('#8c8c8c', '#ffffff')).toBeCloseTo(3.36, 2);
    expect(() => luminance('rgb(1, 2, 3)')).toThrow(/#rrggbb/);
  });

  it('keeps a colour that already reads and darkens one that does not, in its own hue', () => {
    expect(readableShade('#1D4ED8', ['#ffffff'])).toBe('#1d4ed8');
    const shade = readableShade('#0184FE', ['#ffffff', '#e6f4ff']);
    expect(shade).not.toBe('#0184fe');
    expect(contrastRatio(shade, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(shade, '#e6f4ff')).toBeGreaterThanOrEqual(4.5);
    expect(Math.abs(hue(shade) - hue('#0184FE'))).toBeLessThan(2);
    // The lightest such shade: one step lighter no longer reads.
    expect(contrastRatio(shade, '#e6f4ff')).toBeLessThan(4.8);
    expect(readableShade('#ffffff', ['#ffffff'], 21)).toBe('#000000');
  });
});

describe('accessible theme tokens', () => {
  it.each(PRIMARY_PRESETS)('give text and white labels 4.5:1 with the primary colour %s', (primary) => {
    const { token = {}, components = {} } = accessibleTheme(primary, false);
    const tint = theme.getDesignToken({ token: { colorPrimary: primary } }).colorPrimaryBg;
    for (const text of [token.colorLink, token.colorPrimaryText, components.Menu?.itemSelectedColor]) {
      expect(contrastRatio(text as string, '#ffffff')).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(text as string, tint)).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio(components.Button?.colorPrimary as string, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(components.Switch?.colorPrimary as string, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    for (const status of ['colorSuccess', 'colorInfo', 'colorWarning', 'colorError'] as const) {
      expect(contrastRatio(components.Tag?.[status] as string, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    }
    const palette = theme.getDesignToken();
    for (const preset of ['green', 'orange', 'gold', 'blue', 'red'] as const) {
      const text = components.Tag?.[`${preset}7`] as string;
      expect(contrastRatio(text, palette[`${preset}1`])).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('leave the SPEC default #0184FE as the primary colour and darken only text and labelled fills', () => {
    const { token = {} } = accessibleTheme('#0184FE', false);
    expect(token.colorPrimary).toBeUndefined();
    expect(token.colorLink).toMatch(/^#01[0-9a-f]{4}$/);
    expect(token.colorTextDescription).toBe('rgba(0, 0, 0, 0.6)');
  });

  it('in dark mode keep antd text colours and only darken the fills behind white labels', () => {
    const { token = {}, components = {} } = accessibleTheme('#0184FE', true);
    expect(token).toEqual({});
    expect(Object.keys(components)).toEqual(['Button', 'Switch']);
  });
});
