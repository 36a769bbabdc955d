import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider, theme } from 'antd';
import { type ReactNode, useEffect, useMemo } from 'react';
import { FeedbackBridge } from '../platform/feedback/feedback.ts';
import { useLanguageStore } from '../platform/i18n/i18n.ts';
import { useBranding } from '../platform/profile/profile.ts';
import { accessibleTheme } from '../platform/theme/accessible-theme.ts';
import { useThemeStore } from '../platform/theme/theme.store.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { refetchOnWindowFocus: false, retry: 0 },
  },
});

// Server answers carry words in the request's language (dictionary labels, period names, messages): a
// language switch reloads what is on screen instead of leaving it in the old language.
useThemeStore.subscribe((state, previous) => {
  if (state.globalI18n !== previous.globalI18n) void queryClient.invalidateQueries();
});

function ThemedApp({ children }: { children: ReactNode }) {
  const primary = useThemeStore((state) => state.primary);
  const dark = useThemeStore((state) => state.isIsDark);
  const size = useThemeStore((state) => state.globalComponentSize);
  // antd's own words (date pickers, pagination, empty states) in the language whose texts are loaded.
  const locale = useLanguageStore((state) => state.antd);
  const language = useLanguageStore((state) => state.locale);
  const readable = useMemo(() => accessibleTheme(primary, dark), [primary, dark]);

  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
    document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  }, [dark]);

  return (
    <ConfigProvider
      locale={locale}
      componentSize={size}
      theme={{
        algorithm: dark ? theme.darkAlgorithm : theme.defaultAlgorithm,
        token: { colorPrimary: primary, borderRadius: 6, fontFamily: FONT_FAMILY, ...readable.token },
        components: {
          ...readable.components,
          ...(language === 'en' ? LATIN_COLONS : undefined),
        },
      }}
    >
      <AntdApp className="app-root">
        <FeedbackBridge />
        <BrandingEffects />
        {children}
      </AntdApp>
    </ConfigProvider>
  );
}

/**
 * antd spaces the colon after a label like a full-width one (2 px before, 8 px after: "Account ：admin"); in
 * English the colon sits on the word and a space follows ("Account: admin").
 */
const LATIN_COLONS = {
  Descriptions: { colonMarginLeft: 0, colonMarginRight: 6 },
  Form: { labelColonMarginInlineStart: 0 },
};

const FONT_FAMILY =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Helvetica Neue', Arial, sans-serif";

/** The favicon follows the deployment's regional profile. */
function BrandingEffects() {
  const { favicon } = useBranding();
  useEffect(() => {
    if (!favicon) return;
    const link =
      document.querySelector<HTMLLinkElement>('link#app-favicon') ?? document.createElement('link');
    link.id = 'app-favicon';
    link.rel = 'icon';
    link.href = favicon;
    if (!link.parentNode) document.head.appendChild(link);
  }, [favicon]);
  return null;
}

export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemedApp>{children}</ThemedApp>
    </QueryClientProvider>
  );
}
