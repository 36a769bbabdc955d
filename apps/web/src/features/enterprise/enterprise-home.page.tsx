import { AppstoreOutlined, FileTextOutlined, ReloadOutlined } from '@ant-design/icons';
import type { MyReportItem } from '@shuzhi/contracts/diy-collect';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, List, Row, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DIY_REPORT_KEYS, diyReportApi } from '../../components/diy-report/diy-report.api.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { ENTERPRISE_KEYS, enterpriseApi } from './enterprise.api.ts';
import {
  categoryParam,
  categoryTiles,
  countByState,
  needsAction,
  portalHref,
  REPORT_STATES,
} from './enterprise.model.ts';
import {
  CollectStar,
  LoadState,
  onEnter,
  PORTAL_PATHS,
  PortalShell,
  StateTag,
  Tile,
  usePortalActions,
} from './portal-parts.tsx';

const STATE_ACCENT: Record<string, keyof ReturnType<typeof theme.useToken>['token']> = {
  none: 'colorTextQuaternary',
  draft: 'colorWarning',
  submitted: 'colorPrimary',
  returned: 'colorError',
  approved: 'colorSuccess',
};

/**
 * 企业门户 `/enterprise` (issue 6 §5): a welcome with the enterprise's name, the reports by status, the
 * favourites, the categories and the latest filings. Everything links into the report list or the detail.
 */
export default function EnterpriseHomePage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const user = useSessionStore((s) => s.userInfo);
  const actions = usePortalActions();

  const reports = useQuery({ queryKey: ENTERPRISE_KEYS.myReports, queryFn: () => enterpriseApi.myReports() });
  const favourites = useQuery({ queryKey: ENTERPRISE_KEYS.collectList, queryFn: enterpriseApi.collectList });
  const options = useQuery({
    queryKey: DIY_REPORT_KEYS.classifyOptions,
    queryFn: diyReportApi.classifyOptions,
    retry: false,
  });

  const items = reports.data ?? [];
  const counts = useMemo(() => countByState(items), [items]);
  const tiles = useMemo(
    () => categoryTiles(items, options.data, t('enterprise.uncategorized')).filter((tile) => tile.count > 0),
    [items, options.data, t],
  );
  const recent = useMemo(
    () =>
      items
        .filter((i) => i.lastSubmitTime !== null)
        .sort((a, b) => (b.lastSubmitTime ?? '').localeCompare(a.lastSubmitTime ?? ''))
        .slice(0, 5),
    [items],
  );
  const todo = useMemo(() => items.filter(needsAction).slice(0, 5), [items]);
  const go = (path: string, extra: Record<string, string | undefined> = {}) =>
    navigate(portalHref(path, params, extra));

  const refresh = () => {
    void reports.refetch();
    void favourites.refetch();
    void options.refetch();
  };

  const reportRow = (item: MyReportItem, right: ReactNode) => (
    <List.Item
      key={item.id}
      data-testid="enterprise-report-row"
      style={{ cursor: 'pointer' }}
      onClick={() => actions.openDetail(item.id)}
      onKeyDown={onEnter(() => actions.openDetail(item.id))}
      tabIndex={0}
      extra={right}
    >
      <List.Item.Meta
        avatar={<FileTextOutlined style={{ color: token.colorPrimary, fontSize: 18 }} />}
        title={<Typography.Text ellipsis>{item.title}</Typography.Text>}
        description={item.categoryName ?? t('enterprise.uncategorized')}
      />
    </List.Item>
  );

  return (
    <PortalShell
      active="home"
      extra={
        <Button icon={<ReloadOutlined />} onClick={refresh} aria-label={t('enterprise.refresh')}>
          {t('enterprise.refresh')}
        </Button>
      }
    >
      {actions.contextHolder}
      <LoadState pending={reports.isPending} error={reports.error} onRetry={refresh}>
        <Card
          data-testid="enterprise-welcome"
          style={{
            background: `linear-gradient(120deg, ${token.colorPrimaryBg}, ${token.colorBgContainer})`,
          }}
        >
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {t('enterprise.welcome', { name: user?.orgName ?? user?.realName ?? '' })}
          </Typography.Title>
          <Typography.Text type="secondary">
            {t('enterprise.welcomeHint')} · {t('enterprise.totalForms', { count: items.length })}
          </Typography.Text>
          <Row gutter={[12, 12]} style={{ marginTop: 16 }} data-testid="enterprise-counts">
            {REPORT_STATES.map((state) => (
              <Col key={state} flex="1 1 160px">
                <Tile
                  testId="enterprise-count"
                  label={t(`enterprise.states.${state}`)}
                  accent={token[STATE_ACCENT[state] as 'colorPrimary'] as string}
                  onOpen={() => go(PORTAL_PATHS.list, { status: state })}
                >
                  <Typography.Text type="secondary">{t(`enterprise.states.${state}`)}</Typography.Text>
                  <Typography.Text
                    strong
                    style={{ fontSize: 24 }}
                    data-state={state}
                    data-testid="count-value"
                  >
                    {counts[state]}
                  </Typography.Text>
                </Tile>
              </Col>
            ))}
          </Row>
        </Card>

        <Card
          title={t('enterprise.favourites')}
          size="small"
          data-testid="enterprise-favourites"
          loading={favourites.isPending}
        >
          {(favourites.data ?? []).length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('enterprise.favouritesEmpty')} />
          ) : (
            <div style={{ display: 'flex', gap: 12, overflowX: 'auto', paddingBottom: 4 }}>
              {(favourites.data ?? []).map((item: FormItem) => (
                <div key={item.id} style={{ flex: '0 0 240px' }}>
                  <Tile testId="favourite-card" label={item.title} onOpen={() => actions.openDetail(item.id)}>
                    <div style={{ display: 'flex', alignItems: 'center', gap: 4 }}>
                      <Typography.Text strong ellipsis style={{ flex: 1 }}>
                        {item.title}
                      </Typography.Text>
                      <CollectStar
                        collected
                        pending={actions.pendingId === item.id}
                        onToggle={() => actions.toggleCollect(item.id, true)}
                      />
                    </div>
                    <Typography.Text type="secondary" ellipsis>
                      {item.categoryName ?? t('enterprise.uncategorized')}
                    </Typography.Text>
                  </Tile>
                </div>
              ))}
            </div>
          )}
        </Card>

        <Card
          title={t('enterprise.categories')}
          size="small"
          data-testid="enterprise-categories"
          extra={
            <Typography.Link onClick={() => go(PORTAL_PATHS.classify)}>
              {t('enterprise.viewAll')}
            </Typography.Link>
          }
        >
          {tiles.length === 0 ? (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                <>
                  <div>{t('enterprise.empty')}</div>
                  <Typography.Text type="secondary">{t('enterprise.emptyHint')}</Typography.Text>
                </>
              }
            />
          ) : (
            <Row gutter={[12, 12]}>
              {tiles.map((tile) => (
                <Col key={String(tile.id)} xs={12} md={8} xl={6} xxl={4}>
                  <Tile
                    testId="category-tile"
                    label={tile.label}
                    onOpen={() => go(PORTAL_PATHS.list, { category: categoryParam(tile.id) })}
                  >
                    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
                      <AppstoreOutlined style={{ color: token.colorPrimary, fontSize: 18 }} />
                      <Typography.Text strong ellipsis>
                        {tile.label}
                      </Typography.Text>
                    </div>
                    <Typography.Text type="secondary">
                      {t('enterprise.categoryCount', { count: tile.count })}
                    </Typography.Text>
                  </Tile>
                </Col>
              ))}
            </Row>
          )}
        </Card>

        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card title={t('enterprise.recent')} size="small" data-testid="enterprise-recent">
              <List
                dataSource={recent}
                locale={{ emptyText: t('enterprise.recentEmpty') }}
                renderItem={(item) =>
                  reportRow(
                    item,
                    <div style={{ textAlign: 'right' }}>
                      <StateTag item={item} />
                      <div>
                        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                          {item.lastSubmitTime}
                        </Typography.Text>
                      </div>
                    </div>,
                  )
                }
              />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card
              title={t('enterprise.todo')}
              size="small"
              data-testid="enterprise-todo"
              extra={
                <Typography.Link onClick={() => go(PORTAL_PATHS.list)}>
                  {t('enterprise.viewAll')}
                </Typography.Link>
              }
            >
              <List
                dataSource={todo}
                locale={{ emptyText: t('enterprise.todoEmpty') }}
                renderItem={(item) =>
                  reportRow(
                    item,
                    <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
                      <StateTag item={item} />
                      {actions.canFill(item) && (
                        <Button
                          size="small"
                          type="primary"
                          onClick={(event) => {
                            event.stopPropagation();
                            actions.fill(item);
                          }}
                        >
                          {t('enterprise.fill')}
                        </Button>
                      )}
                    </div>,
                  )
                }
              />
            </Card>
          </Col>
        </Row>
      </LoadState>
    </PortalShell>
  );
}
