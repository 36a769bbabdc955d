import { TranslationOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES } from '../platform/i18n/language.ts';
import { type UiLanguage, useThemeStore } from '../platform/theme/theme.store.ts';

export function LanguageSwitch({ className, color }: { className?: string; color?: string }) {
  const { t } = useTranslation();
  const language = useThemeStore((state) => state.globalI18n);
  const update = useThemeStore((state) => state.update);
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: UI_LANGUAGES.map((code) => ({
          key: code,
          label: <span data-testid={`language-option-${code}`}>{t(`languages.${code}`)}</span>,
        })),
        onClick: ({ key }) => update({ globalI18n: key as UiLanguage }),
      }}
    >
      <Button
        type="text"
        className={className}
        style={color ? { color } : undefined}
        icon={<TranslationOutlined />}
        aria-label={t('layout.language')}
        title={t('layout.language')}
        data-testid="language-switch"
      >
        {t(`languages.${language}`)}
      </Button>
    </Dropdown>
  );
}
