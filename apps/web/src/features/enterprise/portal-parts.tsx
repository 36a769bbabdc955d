import { StarFilled, StarOutlined } from '@ant-design/icons';
import type { MyReportItem } from '@shuzhi/contracts/diy-collect';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Result, Segmented, Skeleton, Tag, Tooltip, Typography, theme } from 'antd';
import { type KeyboardEvent, type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useFormPasswordPrompt } from '../../components/diy-report/form-password.tsx';
import { canOpenFormItem, openFormItem } from '../../components/diy-report/open-form-item.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { ENTERPRISE_KEYS, enterpriseApi } from './enterprise.api.ts';
import { portalHref, type ReportState, reportState, STATE_COLOR } from './enterprise.model.ts';

export const PORTAL_PATHS = {
  home: '/enterprise',
  classify: '/enterprise/reportClassify',
  list: '/enterprise/reportList',
  search: '/enterprise/search',
  detail: '/enterprise/detail',
} as const;

type NavKey = 'home' | 'classify' | 'list' | 'search';
const NAV: NavKey[] = ['home', 'classify', 'list', 'search'];

/**
 * The frame of every portal page: the portal's name, the enterprise, and the portal's own navigation, so the
 * pages stand on their own in the no-header mode (`openType=iframenoheader`), which the links keep.
 */
export function PortalShell({
  active,
  extra,
  children,
}: {
  active: NavKey | null;
  extra?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const orgName = useSessionStore((s) => s.userInfo?.orgName ?? null);
  return (
    <div
      data-testid="enterprise-portal"
      style={{
        display: 'flex',
        flexDirection: 'column',
        gap: 16,
        minWidth: 0,
        maxWidth: 1600,
        margin: '0 auto',
      }}
    >
      <div
        style={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: 12,
          padding: '12px 20px',
          borderRadius: token.borderRadiusLG,
          background: token.colorBgContainer,
          border: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong style={{ fontSize: 16 }}>
            {t('enterprise.portal')}
          </Typography.Text>
          {orgName && (
            <Typography.Text type="secondary" style={{ marginLeft: 12 }} data-testid="enterprise-org">
              {orgName}
            </Typography.Text>
          )}
        </div>
        <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
          {extra}
          <Segmented
            data-testid="enterprise-nav"
            value={active ?? undefined}
            options={NAV.map((key) => ({ value: key, label: t(`enterprise.nav.${key}`) }))}
            onChange={(key) => navigate(portalHref(PORTAL_PATHS[key as NavKey], params))}
          />
        </div>
      </div>
      {children}
    </div>
  );
}

export function StateTag({ item }: { item: Pick<MyReportItem, 'latestStatus'> }) {
  const { t } = useTranslation();
  const state: ReportState = reportState(item);
  return (
    <Tag
      color={STATE_COLOR[state]}
      data-testid="report-state"
      data-state={state}
      style={{ marginInlineEnd: 0 }}
    >
      {t(`enterprise.states.${state}`)}
    </Tag>
  );
}

export function CollectStar({
  collected,
  pending,
  onToggle,
}: {
  collected: boolean;
  pending?: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const label = collected ? t('enterprise.uncollect') : t('enterprise.collect');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        aria-label={label}
        aria-pressed={collected}
        loading={pending}
        data-testid="collect-star"
        data-collected={collected ? '1' : '0'}
        icon={collected ? <StarFilled style={{ color: token.colorWarning }} /> : <StarOutlined />}
        onClick={(event) => {
          event.stopPropagation();
          onToggle();
        }}
      />
    </Tooltip>
  );
}

/** Loading, error (with retry) and empty states shared by the portal pages. */
export function LoadState({
  pending,
  error,
  onRetry,
  children,
}: {
  pending: boolean;
  error: Error | null;
  onRetry: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (pending) return <Skeleton active paragraph={{ rows: 6 }} data-testid="enterprise-loading" />;
  if (error)
    return (
      <Result
        status="warning"
        title={t('enterprise.loadFailed')}
        subTitle={error.message}
        data-testid="enterprise-error"
        extra={
          <Button type="primary" onClick={onRetry}>
            {t('enterprise.retry')}
          </Button>
        }
      />
    );
  return <>{children}</>;
}

/**
 * What the portal does with a form: fill it in (SPEC §2 opening, with the form-password prompt of §5 and the
 * 500 ms reclick guard), open its detail, and favourite it.
 */
export function usePortalActions() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { search } = useLocation();
  const client = useQueryClient();
  const { prompt, contextHolder } = useFormPasswordPrompt();
  const [pendingId, setPendingId] = useState<number | null>(null);

  const fillNow = useCallback(
    (item: FormItem) => {
      void openFormItem(item, navigate, {
        prompt,
        onTipCleared: () => void client.invalidateQueries({ queryKey: ['diyTable', 'tableList'] }),
      });
    },
    [navigate, prompt, client],
  );
  const fill = useReclickGuard(fillNow);

  const openDetail = useCallback(
    (id: number) =>
      navigate(portalHref(PORTAL_PATHS.detail, new URLSearchParams(search), { id: String(id) })),
    [navigate, search],
  );

  const mutation = useMutation({
    mutationFn: ({ id, collect }: { id: number; collect: boolean }) => enterpriseApi.collect(id, collect),
    onMutate: ({ id }) => setPendingId(id),
    onSettled: () => setPendingId(null),
    onSuccess: (result) => {
      feedback.success(t(result.collected ? 'enterprise.collectDone' : 'enterprise.uncollectDone'));
      void client.invalidateQueries({ queryKey: ENTERPRISE_KEYS.all });
    },
    onError: (error: Error) => feedback.error(error.message),
  });
  const toggleCollect = useReclickGuard(
    useCallback((id: number, collected: boolean) => mutation.mutate({ id, collect: !collected }), [mutation]),
  );

  return { fill, canFill: canFillItem, openDetail, toggleCollect, pendingId, contextHolder };
}

/** Whether the portal offers 填报 for the item. */
function canFillItem(item: FormItem): boolean {
  return canOpenFormItem(item) && item.myAuth.add;
}

export const onEnter = (action: () => void) => (event: KeyboardEvent) => {
  if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    action();
  }
};

/** A tile that acts like a button (click, Enter, Space); `label` names it for tests and scripts (data-label). */
export function Tile({
  onOpen,
  testId,
  label,
  children,
  accent,
}: {
  onOpen: () => void;
  testId: string;
  label: string;
  children: ReactNode;
  accent?: string;
}) {
  const { token } = theme.useToken();
  return (
    <Card
      hoverable
      size="small"
      role="button"
      tabIndex={0}
      // Named by what it shows (WCAG 2.5.3): an aria-label of the title alone would hide the rest of it.
      data-label={label}
      data-testid={testId}
      onClick={onOpen}
      onKeyDown={onEnter(onOpen)}
      style={{ height: '100%', borderTop: accent ? `3px solid ${accent}` : undefined }}
      styles={{ body: { display: 'flex', flexDirection: 'column', gap: 6, padding: token.paddingSM } }}
    >
      {children}
    </Card>
  );
}
