import type { Locale } from '@shuzhi/contracts/i18n';
import type { UiLanguage } from '../theme/theme.store.ts';

const TO_LOCALE: Record<UiLanguage, Locale> = { 'zh-cn': 'zh-CN', en: 'en', 'zh-tw': 'zh-TW' };
const TO_UI_LANGUAGE: Record<Locale, UiLanguage> = { 'zh-CN': 'zh-cn', en: 'en', 'zh-TW': 'zh-tw' };

export function toLocale(language: UiLanguage): Locale {
  return TO_LOCALE[language] ?? 'zh-CN';
}

export function toUiLanguage(locale: Locale): UiLanguage {
  return TO_UI_LANGUAGE[locale];
}

export const UI_LANGUAGES: readonly UiLanguage[] = ['zh-cn', 'en', 'zh-tw'];
