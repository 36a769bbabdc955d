import { describe, expect, it } from 'vitest';
import { i18n, loadAllTexts } from './i18n.ts';
import { type TextKey, textOf } from './text-key.ts';

// Every text: the platform's locale files and each feature's own `*.locale.ts`.
const { 'zh-CN': zhCN, en, 'zh-TW': zhTW } = await loadAllTexts();

// The keys walked out of the texts themselves, so each names a text.
function keys(value: unknown, prefix = ''): TextKey[] {
  if (typeof value !== 'object' || value === null) return [prefix as TextKey];
  return Object.entries(value).flatMap(([key, inner]) => keys(inner, prefix ? `${prefix}.${key}` : key));
}

function placeholders(text: string): string[] {
  return (text.match(/\{\{\w+\}\}/g) ?? []).sort();
}

describe('locales', () => {
  const reference = keys(zhCN).sort();

  it.each([
    ['en', en],
    ['zh-TW', zhTW],
  ])('%s has exactly the zh-CN keys', (_, messages) => {
    expect(keys(messages).sort()).toEqual(reference);
  });

  it('keeps every interpolation placeholder in every language', () => {
    for (const key of reference) {
      const source = placeholders(
        textOf(i18n.t, key, { lng: 'zh-CN', interpolation: { skipOnVariables: true } }),
      );
      for (const lng of ['en', 'zh-TW']) {
        const text = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], lng === 'en' ? en : zhTW);
        expect(placeholders(text as string), `${lng} ${key}`).toEqual(source);
      }
    }
  });

  it('has no empty texts', () => {
    for (const messages of [zhCN, en, zhTW]) {
      for (const key of keys(messages)) {
        const text = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], messages);
        expect(typeof text === 'string' && text.trim().length > 0, key).toBe(true);
      }
    }
  });

  it('gives every English count a singular form, and counts nothing else with a plural noun', () => {
    const text = (key: string) =>
      key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], en) as string;
    const all = keys(en);
    for (const key of all) {
      const value = text(key);
      if (value.includes('{{count}}') && !/_(one|other)$/.test(key)) {
        // A bare key counted in English reads "1 records"; i18next picks key_one / key_other by count.
        expect(/\{\{count\}\} [a-z]+s\b/.test(value), `en ${key}: "${value}" needs _one / _other`).toBe(
          false,
        );
      }
      if (key.endsWith('_other'))
        expect(all, `en ${key} has no _one`).toContain(key.replace(/_other$/, '_one'));
      // Another number before a plural noun ("{{pending}} records") cannot be made singular.
      const loose = value.match(
        /\{\{(?!count\}\})\w+\}\} (?:[a-z]+ )?(?:records|rows|units|forms|files|fields)\b/,
      );
      expect(loose, `en ${key}: "${value}"`).toBeNull();
    }
    expect(i18n.t('enterprise.categoryCount', { lng: 'en', count: 1 })).toBe('1 form');
    expect(i18n.t('enterprise.categoryCount', { lng: 'en', count: 2 })).toBe('2 forms');
    expect(i18n.t('enterprise.categoryCount', { lng: 'zh-CN', count: 1 })).toBe('1 张表单');
  });

  it('uses the exact zh-CN texts of the specification', () => {
    const zh = (key: TextKey) => textOf(i18n.t, key, { lng: 'zh-CN' });
    expect(zh('http.timeout')).toBe('网络超时');
    expect(zh('http.network')).toBe('网络连接错误');
    expect(zh('http.notFound')).toBe('接口路径找不到');
    expect(zh('login.noPermission')).toBe('抱歉，您没有登录权限');
    expect(zh('forcePassword.title')).toBe('友情提示');
    expect(zh('forcePassword.defaultPassword')).toBe('您的密码为初始密码，请立即修改密码?');
    expect(zh('forcePassword.expiredPassword')).toBe('您的密码已过期，请立即修改密码?');
    expect(zh('app.slogan')).toBe('数智赋能，为基层减负');
  });
});
