import type { Locale } from '@shuzhi/contracts/i18n';
import type { UiLanguage } from '../theme/theme.store.ts';

const TO_LOCALE: Record<UiLanguage, Locale> = { 'zh-cn': 'zh-CN', en: 'en', 'zh-tw': 'zh-TW' };

export function toLocale(language: UiLanguage): Locale {
  return TO_LOCALE[language] ?? 'zh-CN';
}

export const UI_LANGUAGES: readonly UiLanguage[] = ['zh-cn', 'en', 'zh-tw'];
