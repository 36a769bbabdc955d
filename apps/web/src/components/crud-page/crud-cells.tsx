import { Button, type ButtonProps, Popconfirm, Switch, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { DisabledReason } from '../disabled-reason.tsx';

/** A row action: link button with text, or only the icon (name as tooltip and label) in compact tables. */
export function ActionButton({
  compact,
  text,
  ...props
}: { compact: boolean; text: string } & Omit<ButtonProps, 'type' | 'size' | 'children'>) {
  const button = (
    <Button type="link" size="small" aria-label={text} {...props}>
      {compact ? null : text}
    </Button>
  );
  return compact ? <Tooltip title={text}>{button}</Tooltip> : button;
}

/** The status column's switch: read-only without the permission, explained when the record may not change. */
export function StatusCell({
  enabled,
  permission,
  blockedText,
  pending,
  onConfirm,
}: {
  enabled: boolean;
  permission?: string;
  /** Set when this record's status may not be changed: the switch is disabled and this explains why. */
  blockedText?: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const { can } = useCan();
  const readOnly = (
    <Switch
      size="small"
      checked={enabled}
      disabled
      checkedChildren={t('crud.enabled')}
      unCheckedChildren={t('crud.disabled')}
    />
  );
  // Without the permission the switch stays, read-only: the status is information too.
  if (!permission || !can(permission)) return readOnly;
  if (blockedText)
    return (
      <DisabledReason reason={blockedText} testId="crud-status-blocked">
        <Switch
          size="small"
          checked={enabled}
          disabled
          checkedChildren={t('crud.enabled')}
          unCheckedChildren={t('crud.disabled')}
          data-testid="crud-status-switch"
        />
      </DisabledReason>
    );
  return (
    <Popconfirm
      title={t(enabled ? 'crud.confirmDisable' : 'crud.confirmEnable')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onConfirm={onConfirm}
      okButtonProps={{ 'data-testid': 'crud-status-ok' }}
    >
      <Switch
        size="small"
        checked={enabled}
        loading={pending}
        checkedChildren={t('crud.enabled')}
        unCheckedChildren={t('crud.disabled')}
        data-testid="crud-status-switch"
      />
    </Popconfirm>
  );
}
