import { ArrowLeftOutlined, EditOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Descriptions, Result, Row, Space, Statistic, Tag, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { hasErrorCode } from '../../platform/http/http-client.ts';
import { ENTERPRISE_KEYS, enterpriseApi } from './enterprise.api.ts';
import { portalHref } from './enterprise.model.ts';
import { LoadState, PORTAL_PATHS, PortalShell, StateTag, usePortalActions } from './portal-parts.tsx';

const isRefusal = (error: unknown) => hasErrorCode(error, 'F1000', 400, 'F1002');

/**
 * 表单详情 `/enterprise/detail?id=` (issue 6 §5): a form's title, category, owner org and instructions, the
 * enterprise's own records (how many, the latest state, the last submit), with 填报 and 收藏.
 */
export default function EnterpriseDetailPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const actions = usePortalActions();
  const raw = params.get('id');
  const id = raw && /^\d{1,16}$/.test(raw) ? Number(raw) : null;
  const detail = useQuery({
    queryKey: ENTERPRISE_KEYS.detail(id ?? 0),
    queryFn: () => enterpriseApi.detail(id as number),
    enabled: id !== null,
    retry: (count, error) => !isRefusal(error) && count < 2,
  });
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate(portalHref(PORTAL_PATHS.list, params))}>
      {t('enterprise.back')}
    </Button>
  );

  let body: React.ReactNode;
  if (id === null) {
    body = (
      <Result status="warning" title={t('enterprise.missingId')} extra={back} data-testid="detail-missing" />
    );
  } else if (detail.isError && isRefusal(detail.error)) {
    body = (
      <Result
        status="404"
        title={t('enterprise.notFound')}
        subTitle={detail.error.message}
        extra={back}
        data-testid="detail-not-found"
      />
    );
  } else {
    const item = detail.data;
    body = (
      <LoadState pending={detail.isPending} error={detail.error} onRetry={() => void detail.refetch()}>
        {item && (
          <Card data-testid="enterprise-detail">
            <div
              style={{
                display: 'flex',
                flexWrap: 'wrap',
                justifyContent: 'space-between',
                alignItems: 'flex-start',
                gap: 12,
              }}
            >
              <Space orientation="vertical" size={4} style={{ minWidth: 0 }}>
                <Typography.Title level={4} style={{ margin: 0 }} data-testid="detail-title">
                  {item.title}
                </Typography.Title>
                <Space size={8} wrap>
                  <Tag color="blue">{item.categoryName ?? t('enterprise.uncategorized')}</Tag>
                  <StateTag item={item} />
                  {!item.isEnable && <Tag>{t('enterprise.disabled')}</Tag>}
                  {item.isShowPwd && <Tag color="purple">{t('enterprise.locked')}</Tag>}
                </Space>
              </Space>
              <Space wrap>
                <Button
                  type="primary"
                  icon={<EditOutlined />}
                  disabled={!actions.canFill(item)}
                  title={actions.canFill(item) ? undefined : t('enterprise.cannotFill')}
                  onClick={() => actions.fill(item)}
                  data-testid="detail-fill"
                >
                  {item.myAuth.add ? t('enterprise.fill') : t('enterprise.open')}
                </Button>
                <Button
                  icon={
                    item.collected ? <StarFilled style={{ color: token.colorWarning }} /> : <StarOutlined />
                  }
                  loading={actions.pendingId === item.id}
                  aria-pressed={item.collected}
                  onClick={() => actions.toggleCollect(item.id, item.collected)}
                  data-testid="detail-collect"
                  data-collected={item.collected ? '1' : '0'}
                >
                  {item.collected ? t('enterprise.collected') : t('enterprise.collect')}
                </Button>
                {back}
              </Space>
            </div>
            <Descriptions
              style={{ marginTop: 20 }}
              column={{ xs: 1, md: 2 }}
              bordered
              size="small"
              items={[
                {
                  key: 'category',
                  label: t('enterprise.columns.category'),
                  children: item.categoryName ?? t('enterprise.uncategorized'),
                },
                { key: 'owner', label: t('enterprise.owner'), children: item.ownerOrgName ?? '—' },
                {
                  key: 'remark',
                  label: t('enterprise.remark'),
                  span: 'filled',
                  children: item.remark ? (
                    <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>
                      {item.remark}
                    </Typography.Paragraph>
                  ) : (
                    <Typography.Text type="secondary">{t('enterprise.noRemark')}</Typography.Text>
                  ),
                },
              ]}
            />
            <Typography.Title level={5} style={{ marginTop: 24 }}>
              {t('enterprise.myRecords')}
            </Typography.Title>
            <Row gutter={[16, 16]} data-testid="detail-records">
              <Col xs={24} sm={8}>
                <Card size="small">
                  <Statistic title={t('enterprise.columns.records')} value={item.myRecordCount} />
                </Card>
              </Col>
              <Col xs={24} sm={8}>
                <Card size="small">
                  <Typography.Text type="secondary">{t('enterprise.latestStatus')}</Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    <StateTag item={item} />
                  </div>
                </Card>
              </Col>
              <Col xs={24} sm={8}>
                <Card size="small">
                  <Typography.Text type="secondary">{t('enterprise.lastSubmit')}</Typography.Text>
                  <div style={{ marginTop: 8 }}>
                    <Typography.Text strong>{item.lastSubmitTime ?? t('enterprise.never')}</Typography.Text>
                  </div>
                </Card>
              </Col>
            </Row>
          </Card>
        )}
      </LoadState>
    );
  }

  return (
    <PortalShell active={null}>
      {actions.contextHolder}
      {body}
    </PortalShell>
  );
}
