import { Dropdown } from 'antd';
import { type ReactElement, type RefObject, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UI_LANGUAGES } from '../platform/i18n/language.ts';
import { type UiLanguage, useThemeStore } from '../platform/theme/theme.store.ts';

/**
 * The languages to choose from, around the switch's button (`language-switch.tsx`), which mounts this on its
 * first click: open from the start, and with the focus given back to the button if it had it.
 */
export default function LanguageMenu({
  button,
  focus,
  children,
}: {
  button: RefObject<HTMLButtonElement | null>;
  focus: boolean;
  children: ReactElement;
}) {
  const { t } = useTranslation();
  const language = useThemeStore((state) => state.globalI18n);
  const update = useThemeStore((state) => state.update);
  const [open, setOpen] = useState(true);
  useEffect(() => {
    if (focus) button.current?.focus();
  }, [focus, button]);
  return (
    <Dropdown
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      menu={{
        selectable: true,
        selectedKeys: [language],
        items: UI_LANGUAGES.map((code) => ({
          key: code,
          label: <span data-testid={`language-option-${code}`}>{t(`languages.${code}`)}</span>,
        })),
        onClick: ({ key }) => {
          setOpen(false);
          update({ globalI18n: key as UiLanguage });
        },
      }}
    >
      {children}
    </Dropdown>
  );
}
