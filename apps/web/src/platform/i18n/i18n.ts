import { LOCALES, type Locale } from '@shuzhi/contracts/i18n';
import type { Locale as AntdLocale } from 'antd/es/locale';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { create } from 'zustand';
import { useThemeStore } from '../theme/theme.store.ts';
import { toLocale, toUiLanguage } from './language.ts';

type Messages = Record<string, unknown>;
/**
 * A feature's or shared component's own texts (`features/<domain>/<domain>.locale.ts`,
 * `components/<name>/<name>.locale.ts`), under top-level keys of its own.
 */
type FeatureLocale = { 'zh-CN': Messages; en: Messages; 'zh-TW': Messages };

/*
 * Only the language on screen is loaded: its platform texts and antd's words for it. The others load when
 * the user switches (docs/architecture.md "A light first page"). The features' texts and dayjs (dates) are not
 * needed by the login page and load with the first page that uses them (`loadPageLocales`).
 */
const PLATFORM_TEXTS: Record<Locale, () => Promise<{ default: Messages }>> = {
  'zh-CN': () => import('./locales/zh-cn.ts'),
  en: () => import('./locales/en.ts'),
  'zh-TW': () => import('./locales/zh-tw.ts'),
};

const ANTD_LOCALES: Record<Locale, () => Promise<{ default: AntdLocale }>> = {
  'zh-CN': () => import('antd/es/locale/zh_CN'),
  en: () => import('antd/es/locale/en_US'),
  'zh-TW': () => import('antd/es/locale/zh_TW'),
};

const DAYJS_LOCALES: Record<Locale, { name: string; load: () => Promise<unknown> }> = {
  'zh-CN': { name: 'zh-cn', load: () => import('dayjs/locale/zh-cn') },
  en: { name: 'en', load: () => import('dayjs/locale/en') },
  'zh-TW': { name: 'zh-tw', load: () => import('dayjs/locale/zh-tw') },
};

// Each feature keeps its texts beside its pages, so that features added side by side never edit one file.
const FEATURE_TEXTS = import.meta.glob<{ default: FeatureLocale }>([
  '../../features/*/*.locale.ts',
  '../../components/*/*.locale.ts',
]);

type LanguageState = {
  /** The language whose texts are on screen. */
  locale: Locale;
  /** antd's texts for it (ConfigProvider); undefined until the first language has loaded. */
  antd: AntdLocale | undefined;
  /** The language being loaded after a switch, shown as a loading state until its texts are in. */
  loading: Locale | null;
};

export const useLanguageStore = create<LanguageState>(() => ({
  locale: toLocale(useThemeStore.getState().globalI18n),
  antd: undefined,
  loading: null,
}));

const platformTexts = new Map<Locale, Messages>();
let featureTexts: { file: string; locale: FeatureLocale }[] = [];

function merge(base: Messages, language: Locale): Messages {
  const merged: Messages = { ...base };
  for (const { file, locale } of featureTexts) {
    for (const [key, value] of Object.entries(locale[language])) {
      if (key in merged) throw new Error(`${file}: the i18n key "${key}" is defined twice`);
      merged[key] = value;
    }
  }
  return merged;
}

function install(language: Locale): void {
  const base = platformTexts.get(language);
  if (base) i18next.addResourceBundle(language, 'translation', merge(base, language), true, true);
}

type Dayjs = typeof import('./dates.ts')['dayjs'];
/** dayjs, once a page that shows dates has loaded, set to the language on screen. */
let dates: Dayjs | null = null;

async function loadFeatureTexts(): Promise<void> {
  featureTexts = await Promise.all(
    Object.entries(FEATURE_TEXTS).map(async ([file, load]) => ({ file, locale: (await load()).default })),
  );
  for (const language of platformTexts.keys()) install(language);
}

async function loadDates(): Promise<void> {
  const { dayjs } = await import('./dates.ts');
  // The language on screen once its words are in: a switch may have ended meanwhile.
  let language: Locale;
  do {
    language = useLanguageStore.getState().locale;
    await DAYJS_LOCALES[language].load();
  } while (language !== useLanguageStore.getState().locale);
  dayjs.locale(DAYJS_LOCALES[language].name);
  dates = dayjs;
}

let pageLocalesLoad: Promise<void> | null = null;

/**
 * What the pages after the login page need besides their code: the features' texts, in every language
 * (each feature's file holds all three), and dayjs in the language on screen. Loaded once.
 */
export function loadPageLocales(): Promise<void> {
  pageLocalesLoad ??= Promise.all([loadFeatureTexts(), loadDates()]).then(
    () => undefined,
    (error: unknown) => {
      pageLocalesLoad = null;
      throw error;
    },
  );
  return pageLocalesLoad;
}

async function loadLanguage(language: Locale): Promise<AntdLocale> {
  const [texts, antd] = await Promise.all([
    platformTexts.has(language) ? null : PLATFORM_TEXTS[language](),
    ANTD_LOCALES[language](),
    dates ? DAYJS_LOCALES[language].load() : null,
  ]);
  if (texts) {
    platformTexts.set(language, texts.default);
    install(language);
  }
  return antd.default;
}

let latestSwitch = 0;

/** Loads a language if needed and puts it on screen: i18next, antd, dayjs (once loaded) and `<html lang>` follow. */
async function showLanguage(language: Locale): Promise<void> {
  const turn = ++latestSwitch;
  useLanguageStore.setState({ loading: language });
  let antd: AntdLocale;
  try {
    antd = await loadLanguage(language);
  } catch (error) {
    if (turn === latestSwitch) useLanguageStore.setState({ loading: null });
    throw error;
  }
  // A later switch overtook this one while it loaded: that one decides what is shown.
  if (turn !== latestSwitch) return;
  await i18next.changeLanguage(language);
  const dayjs = dates;
  if (dayjs) {
    dayjs.locale(DAYJS_LOCALES[language].name);
    // When dayjs arrived while this language loaded, its words for it were not fetched with it: they follow.
    void DAYJS_LOCALES[language].load().then(() => {
      if (useLanguageStore.getState().locale === language) dayjs.locale(DAYJS_LOCALES[language].name);
    });
  }
  document.documentElement.lang = language;
  useLanguageStore.setState({ locale: language, antd, loading: null });
}

/** Everything in every language: for the locale checks and the component tests. */
export async function loadAllTexts(): Promise<Record<Locale, Messages>> {
  await Promise.all([loadPageLocales(), ...LOCALES.map(loadLanguage)]);
  return Object.fromEntries(
    LOCALES.map((language) => [language, merge(platformTexts.get(language) ?? {}, language)]),
  ) as Record<Locale, Messages>;
}

void i18next.use(initReactI18next).init({
  resources: {},
  lng: useLanguageStore.getState().locale,
  fallbackLng: 'zh-CN',
  supportedLngs: [...LOCALES],
  interpolation: { escapeValue: false },
  // Menu names such as `dashboard:view` must not be read as namespaces.
  nsSeparator: false,
  returnNull: false,
  initAsync: false,
});

/** The first language, before the first render (main.tsx). */
export function startI18n(): Promise<void> {
  return showLanguage(useLanguageStore.getState().locale);
}

// The theme config owns the language (SPEC §3 globalI18n); the texts on screen follow it once loaded.
useThemeStore.subscribe((state, previous) => {
  if (state.globalI18n === previous.globalI18n) return;
  const shown = useLanguageStore.getState().locale;
  showLanguage(toLocale(state.globalI18n)).catch((error: unknown) => {
    // The language could not be loaded (offline): the choice goes back to what is on screen.
    console.error(error);
    if (toLocale(useThemeStore.getState().globalI18n) !== shown)
      useThemeStore.getState().update({ globalI18n: toUiLanguage(shown) });
  });
});

export const i18n = i18next;
