import { CheckOutlined } from '@ant-design/icons';
import {
  Button,
  ColorPicker,
  Divider,
  Drawer,
  InputNumber,
  Segmented,
  Select,
  Switch,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../platform/feedback/feedback.ts';
import { UI_LANGUAGES } from '../../platform/i18n/language.ts';
import {
  type ComponentSize,
  type LayoutMode,
  PRIMARY_PRESETS,
  TOP_BAR_PRESETS,
  type UiLanguage,
  useThemeStore,
} from '../../platform/theme/theme.store.ts';
import styles from './layout.module.css';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className={styles.settingRow}>
      <span>{label}</span>
      {children}
    </div>
  );
}

function hexId(color: string): string {
  return color.replace('#', '').toLowerCase();
}

export function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const config = useThemeStore();
  const { update } = config;

  return (
    <Drawer
      title={t('settings.title')}
      open={open}
      onClose={onClose}
      size={340}
      data-testid="settings-drawer"
      footer={
        <Button
          block
          onClick={() => {
            config.reset();
            feedback.success(t('settings.resetDone'));
          }}
          data-testid="settings-reset"
        >
          {t('settings.reset')}
        </Button>
      }
    >
      <Divider titlePlacement="start" plain>
        {t('settings.theme')}
      </Divider>
      <Row label={t('settings.primary')}>
        <ColorPicker
          value={config.primary}
          disabledAlpha
          showText
          presets={[{ label: t('settings.presets'), colors: PRIMARY_PRESETS }]}
          onChangeComplete={(color) => update({ primary: color.toHexString().toUpperCase() })}
          data-testid="settings-primary-color"
        />
      </Row>
      <div className={styles.swatches} style={{ margin: '4px 0 12px' }}>
        {PRIMARY_PRESETS.map((color) => (
          <button
            key={color}
            type="button"
            className={styles.swatch}
            style={{ background: color, border: 'none' }}
            onClick={() => update({ primary: color })}
            aria-label={color}
            title={color}
            data-testid={`settings-primary-preset-${hexId(color)}`}
          >
            {config.primary.toLowerCase() === color.toLowerCase() ? <CheckOutlined /> : null}
          </button>
        ))}
      </div>
      <Row label={t('settings.darkMode')}>
        <Switch
          checked={config.isIsDark}
          onChange={(isIsDark) => update({ isIsDark })}
          data-testid="settings-dark"
        />
      </Row>
      <Row label={t('settings.topBarColor')}>
        <ColorPicker
          value={config.topBarColor}
          disabledAlpha
          presets={[{ label: t('settings.presets'), colors: TOP_BAR_PRESETS }]}
          onChangeComplete={(color) => update({ topBarColor: color.toHexString().toUpperCase() })}
          data-testid="settings-topbar-color"
        />
      </Row>

      <Divider titlePlacement="start" plain>
        {t('settings.layout')}
      </Divider>
      <Segmented<LayoutMode>
        block
        value={config.layout}
        onChange={(layout) => update({ layout })}
        options={[
          {
            value: 'transverse',
            label: <span data-testid="settings-layout-transverse">{t('settings.layoutTransverse')}</span>,
          },
          {
            value: 'classic',
            label: <span data-testid="settings-layout-classic">{t('settings.layoutClassic')}</span>,
          },
        ]}
      />
      <div style={{ height: 12 }} />
      <Row label={t('settings.componentSize')}>
        <Segmented<ComponentSize>
          value={config.globalComponentSize}
          onChange={(globalComponentSize) => update({ globalComponentSize })}
          options={[
            { value: 'small', label: t('settings.sizeSmall') },
            { value: 'middle', label: t('settings.sizeMiddle') },
            { value: 'large', label: t('settings.sizeLarge') },
          ]}
          data-testid="settings-size"
        />
      </Row>

      <Divider titlePlacement="start" plain>
        {t('settings.display')}
      </Divider>
      <Row label={t('settings.breadcrumb')}>
        <Switch
          checked={config.isBreadcrumb}
          onChange={(isBreadcrumb) => update({ isBreadcrumb })}
          data-testid="settings-breadcrumb"
        />
      </Row>
      <Row label={t('settings.tagsView')}>
        <Switch
          checked={config.isTagsview}
          onChange={(isTagsview) => update({ isTagsview })}
          data-testid="settings-tags"
        />
      </Row>
      <Row label={t('settings.language')}>
        <Select<UiLanguage>
          value={config.globalI18n}
          onChange={(globalI18n) => update({ globalI18n })}
          style={{ width: 140 }}
          options={UI_LANGUAGES.map((code) => ({ value: code, label: t(`languages.${code}`) }))}
          data-testid="settings-language"
        />
      </Row>
      <Row label={t('lockScreen.autoLock')}>
        <Switch
          checked={config.isLockScreen}
          onChange={(isLockScreen) => update({ isLockScreen })}
          data-testid="settings-lock-screen"
        />
      </Row>
      <Row label={t('lockScreen.lockMinutes')}>
        <InputNumber
          min={1}
          max={1440}
          precision={0}
          value={config.lockScreenTime}
          disabled={!config.isLockScreen}
          onChange={(value) => {
            if (typeof value === 'number' && value >= 1) update({ lockScreenTime: value });
          }}
          style={{ width: 100 }}
          data-testid="settings-lock-minutes"
        />
      </Row>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16, fontSize: 12 }}>
        {t('app.slogan')}
      </Typography.Paragraph>
    </Drawer>
  );
}
