import { IdcardOutlined, KeyOutlined, UserOutlined } from '@ant-design/icons';
import { maskCard, maskPhone } from '@shuzhi/contracts/formatters';
import { Avatar, Card, Col, Descriptions, Divider, Row, Space, Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useSecurityConfig } from '../../platform/security/use-security-config.ts';
import { accountTypeKey } from '../../platform/session/account-type.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { ChangePasswordForm } from './change-password-form.tsx';

function avatarSrc(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  return /^(https?:|data:|\/)/.test(avatar) ? avatar : `/${avatar}`;
}

export default function UserCenterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const userInfo = useSessionStore((state) => state.userInfo);
  const passwordChange = useSessionStore((state) => state.passwordChange);
  const security = useSecurityConfig(true);
  const activeTab = params.get('isPassword') === 'true' ? 'password' : 'basic';

  if (!userInfo) return null;
  const none = t('common.notSet');

  const onPasswordChanged = async () => {
    feedback.success(t('userCenter.success'));
    const store = useSessionStore.getState();
    store.setPasswordChange(null);
    store.setUserInfo(await sessionApi.userInfo());
    navigate('/dashboard', { replace: true });
  };

  return (
    <Row gutter={[16, 16]} data-testid="user-center-page">
      <Col xs={24} lg={8} xl={7}>
        <Card data-testid="user-profile-card">
          <div style={{ textAlign: 'center' }}>
            <Avatar size={88} src={avatarSrc(userInfo.avatar)} icon={<UserOutlined />} />
            <Typography.Title level={4} style={{ margin: '14px 0 4px' }}>
              {userInfo.realName}
            </Typography.Title>
            <Typography.Text type="secondary">{userInfo.signature || userInfo.account}</Typography.Text>
          </div>
          <Divider />
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('userCenter.account')}>{userInfo.account}</Descriptions.Item>
            <Descriptions.Item label={t('dashboard.accountType')}>
              {t(accountTypeKey(userInfo.accountType))}
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.org')}>{userInfo.orgName || none}</Descriptions.Item>
            <Descriptions.Item label={t('userCenter.position')}>{userInfo.posName || none}</Descriptions.Item>
            <Descriptions.Item label={t('userCenter.phone')}>
              {userInfo.phone ? maskPhone(userInfo.phone) : none}
            </Descriptions.Item>
          </Descriptions>
          <Divider />
          <Space size={[4, 8]} wrap>
            {userInfo.roles.map((role) => (
              <Tag key={role} color="processing">
                {role}
              </Tag>
            ))}
          </Space>
        </Card>
      </Col>
      <Col xs={24} lg={16} xl={17}>
        <Card>
          <Tabs
            activeKey={activeTab}
            onChange={(key) => setParams(key === 'password' ? { isPassword: 'true' } : {}, { replace: true })}
            items={[
              {
                key: 'basic',
                label: (
                  <span data-testid="user-center-tab-basic">
                    <IdcardOutlined /> {t('userCenter.basicInfo')}
                  </span>
                ),
                children: (
                  <Descriptions
                    column={{ xs: 1, md: 2 }}
                    bordered
                    size="middle"
                    data-testid="user-basic-info"
                  >
                    <Descriptions.Item label={t('userCenter.realName')}>
                      {userInfo.realName}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.account')}>{userInfo.account}</Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.phone')}>
                      {userInfo.phone || none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.idCard')}>
                      {userInfo.idCardNum ? maskCard(userInfo.idCardNum) : none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.org')}>
                      {userInfo.orgName || none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.position')}>
                      {userInfo.posName || none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.fullOrg')} span={2}>
                      {userInfo.fullOrgNames || none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.region')} span={2}>
                      {userInfo.fullRegionName || userInfo.regionName || none}
                    </Descriptions.Item>
                    {userInfo.enterprise ? (
                      <Descriptions.Item label={t('userCenter.enterprise')} span={2}>
                        {userInfo.enterprise}
                      </Descriptions.Item>
                    ) : null}
                    <Descriptions.Item label={t('userCenter.roles')} span={2}>
                      {userInfo.roles.join(t('common.listSeparator')) || none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.address')} span={2}>
                      {userInfo.address || none}
                    </Descriptions.Item>
                    <Descriptions.Item label={t('userCenter.signature')} span={2}>
                      {userInfo.signature || none}
                    </Descriptions.Item>
                  </Descriptions>
                ),
              },
              {
                key: 'password',
                label: (
                  <span data-testid="user-center-tab-password">
                    <KeyOutlined /> {t('userCenter.changePassword')}
                  </span>
                ),
                children: (
                  <ChangePasswordForm
                    forced={passwordChange !== null || userInfo.isDefPwd}
                    strong={security.strongPassword}
                    onChanged={onPasswordChanged}
                  />
                ),
              },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
