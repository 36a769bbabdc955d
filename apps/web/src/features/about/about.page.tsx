import { Card, Col, Descriptions, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { useBranding } from '../../platform/profile/profile.ts';

const FRONTEND_STACK = [
  'React 19',
  'Ant Design 6',
  'React Router 7',
  'TanStack Query 5',
  'Zustand 5',
  'i18next',
  'Vite 8',
];
const BACKEND_STACK = [
  'Node.js',
  'Fastify 5',
  'Kysely',
  'SQLite / PostgreSQL',
  'Redis',
  'Socket.IO',
  'Zod 4',
];

export default function AboutPage() {
  const { t } = useTranslation();
  const branding = useBranding();
  const profile = branding.profile;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="about-page">
      <Card>
        <Space size={20} align="start">
          <BrandLogo src={branding.logo} text={profile?.shortName ?? t('app.name')} size={64} />
          <div>
            <Typography.Title level={3} style={{ marginTop: 0 }}>
              {branding.systemName}
            </Typography.Title>
            <Typography.Paragraph style={{ fontSize: 16, marginBottom: 8 }} strong>
              {t('app.slogan')}
            </Typography.Paragraph>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0, maxWidth: 820 }}>
              {t('about.intro')}
            </Typography.Paragraph>
          </div>
        </Space>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('about.profile')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('about.systemName')}>{branding.systemTitle}</Descriptions.Item>
              <Descriptions.Item label={t('about.version')}>{__APP_VERSION__}</Descriptions.Item>
              <Descriptions.Item label={t('about.area')}>
                {branding.areaName || t('common.notSet')}
              </Descriptions.Item>
              <Descriptions.Item label={t('about.areaCode')}>
                {profile?.areaCode || t('common.notSet')}
              </Descriptions.Item>
              <Descriptions.Item label={t('about.unit')}>
                {branding.unitName || t('common.notSet')}
              </Descriptions.Item>
              <Descriptions.Item label={t('about.organizer')}>
                {branding.organizer || t('common.notSet')}
              </Descriptions.Item>
              <Descriptions.Item label={t('about.phone')}>
                {branding.phone || t('common.notSet')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('about.techStack')} style={{ height: '100%' }}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('about.frontend')}>
                <Space size={[4, 8]} wrap>
                  {FRONTEND_STACK.map((item) => (
                    <Tag key={item} color="blue">
                      {item}
                    </Tag>
                  ))}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label={t('about.backend')}>
                <Space size={[4, 8]} wrap>
                  {BACKEND_STACK.map((item) => (
                    <Tag key={item} color="geekblue">
                      {item}
                    </Tag>
                  ))}
                </Space>
              </Descriptions.Item>
              <Descriptions.Item label={t('about.security')}>{t('about.securityValue')}</Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
