import {
  DatabaseOutlined,
  FileTextOutlined,
  FileWordOutlined,
  FundProjectionScreenOutlined,
  LockOutlined,
  StopOutlined,
} from '@ant-design/icons';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import { Badge, Card, Tag, Tooltip, Typography, theme } from 'antd';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CurrentPeriodLine } from '../../components/diy-period/period-tag.tsx';
import { formItemTarget } from '../../components/diy-report/open-form-item.ts';
import { serverText } from '../../platform/i18n/text-key.ts';

function TypeIcon({ reportType }: { reportType: number }) {
  if (reportType === 6) return <FundProjectionScreenOutlined />;
  if (reportType === 7) return <FileWordOutlined />;
  if (reportType >= 2 && reportType <= 4) return <DatabaseOutlined />;
  return <FileTextOutlined />;
}

/** Why an item cannot be opened, or null when it can. */
function blockedReason(item: FormItem): 'disabled' | 'noAccess' | 'notOpenable' | null {
  if (!item.isEnable) return 'disabled';
  if (!item.myAuth.query) return 'noAccess';
  if (!formItemTarget(item)) return 'notOpenable';
  return null;
}

/** One form of 报表填报: a click or Enter opens it; a blocked one looks greyed and says why. */
export function FormItemCard({ item, onOpen }: { item: FormItem; onOpen: (item: FormItem) => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const blocked = blockedReason(item);
  const periodic = (item.periodKind ?? 'none') !== 'none';
  const periodState = item.currentPeriod?.state;
  // A period past its due date asks for attention on the card itself.
  const alert =
    !blocked && periodic
      ? periodState === 'overdue'
        ? token.colorError
        : periodState === 'grace'
          ? token.colorWarning
          : undefined
      : undefined;
  const typeLabel = serverText(t, `diyReport.reportTypes.${item.reportType}`, { defaultValue: '' });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (!blocked) onOpen(item);
    }
  };

  const reasonText =
    blocked === 'disabled'
      ? t('diyReport.disabledReason')
      : blocked === 'noAccess'
        ? t('diyReport.noAccessReason')
        : blocked === 'notOpenable'
          ? t('diyReport.notOpenable')
          : undefined;

  const card = (
    <Card
      hoverable={!blocked}
      size="small"
      role="button"
      tabIndex={0}
      aria-disabled={blocked ? true : undefined}
      onClick={() => {
        if (!blocked) onOpen(item);
      }}
      onKeyDown={onKeyDown}
      data-testid="form-item-card"
      data-id={item.id}
      style={{
        height: '100%',
        cursor: blocked ? 'not-allowed' : 'pointer',
        opacity: blocked ? 0.55 : 1,
        background: blocked ? token.colorFillAlter : undefined,
        ...(alert ? { borderColor: alert, boxShadow: `inset 3px 0 0 ${alert}` } : {}),
      }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 8, height: '100%' } }}
    >
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 10 }}>
        <Badge dot={item.isTip} offset={[-2, 2]} title={item.isTip ? t('diyReport.tipHint') : undefined}>
          <span
            style={{
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              width: 36,
              height: 36,
              borderRadius: 8,
              fontSize: 18,
              color: blocked ? token.colorTextDisabled : token.colorPrimary,
              background: blocked ? token.colorFillSecondary : token.colorPrimaryBg,
            }}
          >
            <TypeIcon reportType={item.reportType} />
          </span>
        </Badge>
        <div style={{ minWidth: 0, flex: 1 }}>
          <Typography.Text
            strong
            ellipsis={{ tooltip: item.title }}
            style={{ display: 'block' }}
            data-testid="form-item-title"
          >
            {item.title}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {typeLabel}
            {item.ownerOrgName ? ` · ${item.ownerOrgName}` : ''}
          </Typography.Text>
        </div>
        <span style={{ display: 'inline-flex', gap: 4, alignItems: 'center', flex: 'none' }}>
          {item.isTip ? (
            <Tag color="red" style={{ marginInlineEnd: 0 }} data-testid="form-item-new">
              {t('diyReport.newTip')}
            </Tag>
          ) : null}
          {item.isShowPwd ? (
            <Tooltip title={t('diyReport.locked')}>
              <LockOutlined
                aria-label={t('diyReport.locked')}
                style={{ color: token.colorWarning }}
                data-testid="form-item-lock"
              />
            </Tooltip>
          ) : null}
        </span>
      </div>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
        <Tag style={{ marginInlineEnd: 0 }}>{item.categoryName ?? t('diyReport.uncategorized')}</Tag>
        {blocked === 'disabled' ? (
          <Tag
            icon={<StopOutlined />}
            color="default"
            style={{ marginInlineEnd: 0 }}
            data-testid="form-item-disabled"
          >
            {t('diyReport.disabled')}
          </Tag>
        ) : blocked === 'noAccess' ? (
          <Tag color="default" style={{ marginInlineEnd: 0 }}>
            {t('diyReport.noAccess')}
          </Tag>
        ) : null}
      </div>
      {periodic ? <CurrentPeriodLine period={item.currentPeriod ?? null} /> : null}
      <div
        style={{
          marginTop: 'auto',
          display: 'flex',
          justifyContent: 'space-between',
          gap: 8,
          fontSize: 12,
          color: token.colorTextSecondary,
        }}
      >
        <span data-testid="form-item-count">
          {item.reportType === 1 ? t('diyReport.records', { count: item.recordCount }) : null}
        </span>
        <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {item.lastUpdateTime
            ? t('diyReport.updatedAt', { time: item.lastUpdateTime.slice(0, 16) })
            : t('diyReport.neverUpdated')}
        </span>
      </div>
    </Card>
  );

  return reasonText ? <Tooltip title={reasonText}>{card}</Tooltip> : card;
}
