import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import 'dayjs/locale/en';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useThemeStore } from '../theme/theme.store.ts';
import { toLocale } from './language.ts';
import en from './locales/en.ts';
import zhCN from './locales/zh-cn.ts';
import zhTW from './locales/zh-tw.ts';

type Messages = Record<string, unknown>;
/**
 * A feature's or shared component's own texts (`features/<domain>/<domain>.locale.ts`,
 * `components/<name>/<name>.locale.ts`), under top-level keys of its own.
 */
type FeatureLocale = { 'zh-CN': Messages; en: Messages; 'zh-TW': Messages };

// Each feature keeps its texts beside its pages, so that features added side by side never edit one file.
const featureLocales = Object.entries(
  import.meta.glob<{ default: FeatureLocale }>(
    ['../../features/*/*.locale.ts', '../../components/*/*.locale.ts'],
    {
      eager: true,
    },
  ),
).map(([file, module]) => ({ file, locale: module.default }));

function merge(base: Messages, language: keyof FeatureLocale): Messages {
  const merged: Messages = { ...base };
  for (const { file, locale } of featureLocales) {
    for (const [key, value] of Object.entries(locale[language])) {
      if (key in merged) throw new Error(`${file}: the i18n key "${key}" is defined twice`);
      merged[key] = value;
    }
  }
  return merged;
}

export const messages = {
  'zh-CN': merge(zhCN, 'zh-CN'),
  en: merge(en, 'en'),
  'zh-TW': merge(zhTW, 'zh-TW'),
} as const;

const resources = {
  'zh-CN': { translation: messages['zh-CN'] },
  en: { translation: messages.en },
  'zh-TW': { translation: messages['zh-TW'] },
} as const;

const DAYJS_LOCALE = { 'zh-CN': 'zh-cn', en: 'en', 'zh-TW': 'zh-tw' } as const;

function apply(locale: keyof typeof resources): void {
  dayjs.locale(DAYJS_LOCALE[locale]);
  document.documentElement.lang = locale;
}

const initial = toLocale(useThemeStore.getState().globalI18n);

void i18next.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: 'zh-CN',
  supportedLngs: ['zh-CN', 'en', 'zh-TW'],
  interpolation: { escapeValue: false },
  // Menu names such as `dashboard:view` must not be read as namespaces.
  nsSeparator: false,
  returnNull: false,
  initAsync: false,
});
apply(initial);

// The theme config owns the language (SPEC §3 globalI18n); i18next, dayjs and <html lang> follow it.
useThemeStore.subscribe((state, previous) => {
  if (state.globalI18n === previous.globalI18n) return;
  const locale = toLocale(state.globalI18n);
  void i18next.changeLanguage(locale);
  apply(locale);
});

export const i18n = i18next;
