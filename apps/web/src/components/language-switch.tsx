import { TranslationOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguageStore } from '../platform/i18n/i18n.ts';
import { useThemeStore } from '../platform/theme/theme.store.ts';

// The drop-down (antd Menu) is not among the login page's first scripts: it is fetched when the pointer or
// the focus reaches the switch, and shown from the first click on.
const loadLanguageMenu = () => import('./language-menu.tsx');
const LanguageMenu = lazy(loadLanguageMenu);

export function LanguageSwitch({ className, color }: { className?: string; color?: string }) {
  const { t } = useTranslation();
  const language = useThemeStore((state) => state.globalI18n);
  // A chosen language shows once its texts are in; the button spins meanwhile.
  const switching = useLanguageStore((state) => state.loading !== null);
  const [menu, setMenu] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const focused = useRef(false);
  const button = (
    <Button
      ref={buttonRef}
      type="text"
      className={className}
      style={color ? { color } : undefined}
      icon={<TranslationOutlined />}
      loading={switching}
      // The name starts with the words the button shows (WCAG 2.5.3, label in name): "简体中文, 语言切换".
      aria-label={`${t(`languages.${language}`)}, ${t('layout.language')}`}
      title={t('layout.language')}
      data-testid="language-switch"
      onPointerEnter={() => void loadLanguageMenu()}
      onFocus={() => {
        focused.current = true;
        void loadLanguageMenu();
      }}
      onBlur={() => {
        focused.current = false;
      }}
      onClick={() => setMenu(true)}
    >
      {t(`languages.${language}`)}
    </Button>
  );
  if (!menu) return button;
  return (
    <Suspense fallback={button}>
      <LanguageMenu button={buttonRef} focus={focused.current}>
        {button}
      </LanguageMenu>
    </Suspense>
  );
}
