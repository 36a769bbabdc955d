import { greetingBand } from '@shuzhi/contracts/formatters';
import { describe, expect, it } from 'vitest';
import { i18n, loadAllTexts } from './i18n.ts';

const { en } = await loadAllTexts();

function texts(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => texts(inner, prefix ? `${prefix}.${key}` : key));
}

describe('English texts', () => {
  it('use no full-width punctuation, and a colon of their own between a label and its value', () => {
    const wrong = texts(en).filter(([, text]) => /[：，；（）！？、]/.test(text));
    expect(wrong).toEqual([]);
    expect(i18n.t('common.colon', { lng: 'en' })).toBe(': ');
    expect(i18n.t('common.colon', { lng: 'zh-CN' })).toBe('：');
    expect(i18n.t('common.colon', { lng: 'zh-TW' })).toBe('：');
  });

  it('greet as English speakers do at every hour', () => {
    const said = (hour: number) => i18n.t(`hello.${greetingBand(hour)}`, { lng: 'en' });
    expect(said(12)).toBe('Good afternoon');
    expect(said(13)).toBe('Good afternoon');
    expect(said(3)).toBe('Good morning');
    expect(said(10)).toBe('Good morning');
    expect(said(20)).toBe('Good evening');
    for (let hour = 0; hour < 24; hour++) {
      const login = i18n.t(`greeting.${greetingBand(hour)}`, { lng: 'en' });
      expect(`${said(hour)} ${login}`, `${hour}:00`).not.toMatch(/\bnoon|early morning|Good night/);
    }
  });
});
