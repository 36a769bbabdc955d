import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { storageKey, THEME_CONFIG_KEY } from '../storage/storage.ts';

export type UiLanguage = 'zh-cn' | 'en' | 'zh-tw';
export type LayoutMode = 'transverse' | 'classic';
export type ComponentSize = 'small' | 'middle' | 'large';

/** Theme config of SPEC §3; field names follow the family's stored shape so old configs keep working. */
export type ThemeConfig = {
  primary: string;
  layout: LayoutMode;
  isIsDark: boolean;
  topBarColor: string;
  isBreadcrumb: boolean;
  isTagsview: boolean;
  isCollapse: boolean;
  isLockScreen: boolean;
  lockScreenTime: number;
  isWartermark: boolean;
  watermarkText: string;
  globalI18n: UiLanguage;
  globalTitle: string;
  globalComponentSize: ComponentSize;
};

const DEFAULT_PRIMARY = '#0184FE';
export const PRIMARY_PRESETS = [
  '#0184FE',
  '#1D4ED8',
  '#722ED1',
  '#13C2C2',
  '#52C41A',
  '#FA8C16',
  '#F5222D',
  '#EB2F96',
];
export const TOP_BAR_PRESETS = ['#FFFFFF', '#0184FE', '#001529', '#1F2937'];

export const DEFAULT_THEME: ThemeConfig = {
  primary: DEFAULT_PRIMARY,
  layout: 'transverse',
  isIsDark: false,
  topBarColor: '#FFFFFF',
  isBreadcrumb: true,
  isTagsview: true,
  isCollapse: false,
  isLockScreen: false,
  lockScreenTime: 30,
  isWartermark: false,
  watermarkText: '',
  globalI18n: 'zh-cn',
  globalTitle: '',
  globalComponentSize: 'middle',
};

const LANGUAGES: readonly UiLanguage[] = ['zh-cn', 'en', 'zh-tw'];

/** A stored config may come from an older build; unknown values fall back to defaults. */
function sanitize(value: unknown): Partial<ThemeConfig> {
  if (!value || typeof value !== 'object') return {};
  const config = { ...(value as Partial<ThemeConfig>) };
  if (!config.globalI18n || !LANGUAGES.includes(config.globalI18n)) delete config.globalI18n;
  if (config.layout !== 'transverse' && config.layout !== 'classic') delete config.layout;
  if (!['small', 'middle', 'large'].includes(config.globalComponentSize ?? ''))
    delete config.globalComponentSize;
  if (typeof config.primary !== 'string' || !/^#[0-9a-f]{6}$/i.test(config.primary)) delete config.primary;
  return config;
}

type ThemeState = ThemeConfig & {
  update(patch: Partial<ThemeConfig>): void;
  reset(): void;
};

export const useThemeStore = create<ThemeState>()(
  persist(
    (set) => ({
      ...DEFAULT_THEME,
      update: (patch) => set(patch),
      reset: () => set({ ...DEFAULT_THEME }),
    }),
    {
      name: storageKey(THEME_CONFIG_KEY),
      storage: createJSONStorage(() => window.localStorage),
      partialize: ({ update: _update, reset: _reset, ...config }) => config,
      merge: (persisted, current) => ({ ...current, ...sanitize(persisted) }),
    },
  ),
);
