import { AppstoreOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Space, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { DIY_REPORT_KEYS, diyReportApi } from '../../components/diy-report/diy-report.api.ts';
import { ENTERPRISE_KEYS, enterpriseApi } from './enterprise.api.ts';
import { categoryParam, categoryTiles, countByState, inCategory, portalHref } from './enterprise.model.ts';
import { LoadState, PORTAL_PATHS, PortalShell, Tile } from './portal-parts.tsx';

/**
 * 报表分类 `/enterprise/reportClassify` (issue 6 §5; the landing page of enterprise users in the no-header
 * mode): the categories of the enterprise's reports as tiles with how many forms each holds and how many are
 * still to be filed; a tile opens the report list of that category.
 */
export default function ReportClassifyPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const reports = useQuery({ queryKey: ENTERPRISE_KEYS.myReports, queryFn: () => enterpriseApi.myReports() });
  const options = useQuery({
    queryKey: DIY_REPORT_KEYS.classifyOptions,
    queryFn: diyReportApi.classifyOptions,
    retry: false,
  });
  const items = reports.data ?? [];
  const tiles = useMemo(
    () => categoryTiles(items, options.data, t('enterprise.uncategorized')).filter((tile) => tile.count > 0),
    [items, options.data, t],
  );
  const refresh = () => {
    void reports.refetch();
    void options.refetch();
  };

  return (
    <PortalShell active="classify">
      <LoadState pending={reports.isPending} error={reports.error} onRetry={refresh}>
        <Card
          title={t('enterprise.categories')}
          extra={
            <Typography.Text type="secondary">
              {t('enterprise.totalForms', { count: items.length })}
            </Typography.Text>
          }
        >
          {tiles.length === 0 ? (
            <Empty
              description={
                <>
                  <div>{t('enterprise.empty')}</div>
                  <Typography.Text type="secondary">{t('enterprise.emptyHint')}</Typography.Text>
                </>
              }
            />
          ) : (
            <Row gutter={[16, 16]} data-testid="classify-grid">
              {tiles.map((tile) => {
                const mine = items.filter((i) => inCategory(i, tile.id, options.data));
                const counts = countByState(mine);
                const open = counts.none + counts.draft + counts.returned;
                return (
                  <Col key={String(tile.id)} xs={24} sm={12} lg={8} xxl={6}>
                    <Tile
                      testId="category-tile"
                      label={tile.label}
                      onOpen={() =>
                        navigate(portalHref(PORTAL_PATHS.list, params, { category: categoryParam(tile.id) }))
                      }
                    >
                      <div style={{ display: 'flex', alignItems: 'center', gap: 12, padding: '8px 4px' }}>
                        <span
                          style={{
                            display: 'inline-flex',
                            alignItems: 'center',
                            justifyContent: 'center',
                            width: 44,
                            height: 44,
                            borderRadius: token.borderRadiusLG,
                            background: token.colorPrimaryBg,
                            color: token.colorPrimary,
                            fontSize: 22,
                            flex: 'none',
                          }}
                        >
                          <AppstoreOutlined />
                        </span>
                        <Space orientation="vertical" size={2} style={{ minWidth: 0 }}>
                          <Typography.Text strong style={{ fontSize: 16 }} ellipsis>
                            {tile.label}
                          </Typography.Text>
                          <Typography.Text type="secondary" data-testid="category-count">
                            {t('enterprise.categoryCount', { count: tile.count })}
                          </Typography.Text>
                        </Space>
                      </div>
                      <Typography.Text type={open > 0 ? 'warning' : 'secondary'} style={{ fontSize: 12 }}>
                        {t('enterprise.states.none')} {counts.none} · {t('enterprise.states.draft')}{' '}
                        {counts.draft}
                        {' · '}
                        {t('enterprise.states.returned')} {counts.returned}
                      </Typography.Text>
                    </Tile>
                  </Col>
                );
              })}
            </Row>
          )}
        </Card>
      </LoadState>
    </PortalShell>
  );
}
