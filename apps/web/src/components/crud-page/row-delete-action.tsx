import { DeleteOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../platform/access/access.tsx';
import { ActionButton } from './crud-cells.tsx';

/**
 * A row's 删除: a danger link button that asks first (删除确认 with `description`, the OK button danger too),
 * inside `Auth` when a permission is given. The button's test id is `testId`, the OK button's `<testId>-ok`.
 * `busy` disables the button (this row's delete is under way), `loading` spins it instead; `disabled` also keeps
 * the confirmation shut. In compact tables only the icon shows, the name as tooltip and label. With
 * `blockedText` the row may not be deleted: the button stays, disabled, and the tooltip says why.
 */
export function RowDeleteAction({
  permission,
  testId,
  description,
  onConfirm,
  title,
  text,
  okText,
  busy = false,
  loading = false,
  disabled = false,
  compact = false,
  blockedText,
}: {
  permission?: string;
  testId: string;
  description: string;
  onConfirm: () => void;
  /** 删除确认 unless given. */
  title?: string;
  /** 删除 unless given. */
  text?: string;
  /** The button's text unless given. */
  okText?: string;
  busy?: boolean;
  loading?: boolean;
  disabled?: boolean;
  compact?: boolean;
  blockedText?: string;
}) {
  const { t } = useTranslation();
  const label = text ?? t('crud.delete');
  const action = blockedText ? (
    <Tooltip title={blockedText}>
      <Button
        type="link"
        size="small"
        danger
        icon={<DeleteOutlined />}
        disabled
        aria-label={label}
        data-testid={testId}
      >
        {compact ? null : label}
      </Button>
    </Tooltip>
  ) : (
    <Popconfirm
      title={title ?? t('crud.confirmDeleteTitle')}
      description={description}
      okText={okText ?? label}
      okButtonProps={{ danger: true, ...{ 'data-testid': `${testId}-ok` } }}
      cancelText={t('common.cancel')}
      onConfirm={onConfirm}
      disabled={disabled}
    >
      <ActionButton
        compact={compact}
        text={label}
        danger
        icon={<DeleteOutlined />}
        disabled={disabled || busy}
        loading={loading}
        data-testid={testId}
      />
    </Popconfirm>
  );
  return permission ? <Auth value={permission}>{action}</Auth> : action;
}
