import { CameraOutlined, IdcardOutlined, KeyOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { maskPhone } from '@shuzhi/contracts/formatters';
import { AVATAR_MAX_BYTES } from '@shuzhi/contracts/user-center';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Avatar,
  Button,
  Card,
  Col,
  Descriptions,
  Divider,
  Row,
  Skeleton,
  Space,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { homeTarget } from '../../app/navigation.ts';
import { useFileUrl } from '../../components/file-image/use-file-url.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useSecurityConfig } from '../../platform/security/use-security-config.ts';
import { accountTypeKey } from '../../platform/session/account-type.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { sessionAccountType, sessionLoginType } from '../../platform/session/session-state.ts';
import { AvatarCropper } from './avatar-cropper.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';
import { formatBytes, imageProblem } from './crop.ts';
import { BASE_INFO_KEY, OpPasswordForm } from './op-password-form.tsx';
import { ProfileForm } from './profile-form.tsx';
import { SignatureCard } from './signature-card.tsx';
import { userCenterApi } from './user-center.api.ts';

type TabKey = 'basic' | 'password' | 'opPassword';

/** `?isPassword=true` (the forced change of SPEC §2) opens the password tab; `?tab=opPassword` the other. */
function tabOf(params: URLSearchParams): TabKey {
  if (params.get('isPassword') === 'true') return 'password';
  return params.get('tab') === 'opPassword' ? 'opPassword' : 'basic';
}

/** Reloads the signed-in user's info, so the header and this page show the change. */
async function refreshUserInfo(): Promise<void> {
  useSessionStore.getState().setUserInfo(await sessionApi.userInfo());
}

export default function UserCenterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const userInfo = useSessionStore((state) => state.userInfo);
  const passwordChange = useSessionStore((state) => state.passwordChange);
  const security = useSecurityConfig(true);
  const info = useQuery({ queryKey: BASE_INFO_KEY, queryFn: userCenterApi.baseInfo });
  const avatarSrc = useFileUrl(userInfo?.avatar);
  const [cropSrc, setCropSrc] = useState<string | null>(null);
  const [savingAvatar, setSavingAvatar] = useState(false);
  const activeTab = tabOf(params);

  // The chosen picture lives as an object URL only while the crop dialog shows it.
  useEffect(() => () => void (cropSrc && URL.revokeObjectURL(cropSrc)), [cropSrc]);

  if (!userInfo) return null;
  const none = t('common.notSet');

  const afterChange = async () => {
    await Promise.all([refreshUserInfo(), client.invalidateQueries({ queryKey: BASE_INFO_KEY })]);
  };

  const onPasswordChanged = async () => {
    feedback.success(t('userCenter.success'));
    const store = useSessionStore.getState();
    store.setPasswordChange(null);
    store.setUserInfo(await sessionApi.userInfo());
    // Back to where this session lands: the dashboard, 报表填报 for login type 9, an enterprise's portal.
    navigate(homeTarget(sessionLoginType(), null, sessionAccountType()), { replace: true });
  };

  const chooseAvatar = (file: File) => {
    const problem = imageProblem(file, AVATAR_MAX_BYTES);
    if (problem === 'type') feedback.error(t('userProfile.imageType'));
    else if (problem === 'size')
      feedback.error(t('userProfile.imageSize', { max: formatBytes(AVATAR_MAX_BYTES) }));
    else setCropSrc(URL.createObjectURL(file));
    return Upload.LIST_IGNORE;
  };

  const saveAvatar = async (blob: Blob) => {
    setSavingAvatar(true);
    try {
      await userCenterApi.uploadAvatar(blob, 'avatar.png');
      await afterChange();
      feedback.success(t('userProfile.avatarSaved'));
      setCropSrc(null);
    } catch {
      // The HTTP client showed the server's message; the dialog stays open to try again.
    } finally {
      setSavingAvatar(false);
    }
  };

  const saveSignature = async (blob: Blob, fileName: string) => {
    await userCenterApi.uploadSignature(blob, fileName);
    await afterChange();
    feedback.success(t('userProfile.signatureSaved'));
  };

  const changeTab = (key: string) =>
    setParams(
      key === 'password' ? { isPassword: 'true' } : key === 'opPassword' ? { tab: 'opPassword' } : {},
      { replace: true },
    );

  return (
    <Row gutter={[16, 16]} data-testid="user-center-page">
      <Col xs={24} lg={8} xl={7}>
        <Card data-testid="user-profile-card">
          <div style={{ textAlign: 'center' }}>
            <Upload
              accept="image/png,image/jpeg,image/webp"
              showUploadList={false}
              beforeUpload={chooseAvatar}
            >
              <div style={{ position: 'relative', display: 'inline-block', cursor: 'pointer' }}>
                <Avatar size={96} src={avatarSrc} icon={<UserOutlined />} data-testid="user-center-avatar" />
                <Button
                  shape="circle"
                  size="small"
                  icon={<CameraOutlined />}
                  title={t('userProfile.changeAvatar')}
                  aria-label={t('userProfile.changeAvatar')}
                  data-testid="avatar-change"
                  style={{ position: 'absolute', right: 0, bottom: 0 }}
                />
              </div>
            </Upload>
            <Typography.Title level={4} style={{ margin: '14px 0 4px' }}>
              {userInfo.realName}
            </Typography.Title>
            <Typography.Text type="secondary">{info.data?.nickName || userInfo.account}</Typography.Text>
          </div>
          <Divider />
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('userCenter.account')}>{userInfo.account}</Descriptions.Item>
            <Descriptions.Item label={t('dashboard.accountType')}>
              {t(accountTypeKey(userInfo.accountType))}
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.org')}>{userInfo.orgName || none}</Descriptions.Item>
            <Descriptions.Item label={t('userCenter.fullOrg')}>
              {userInfo.fullOrgNames || none}
            </Descriptions.Item>
            <Descriptions.Item label={t('userCenter.position')}>{userInfo.posName || none}</Descriptions.Item>
            <Descriptions.Item label={t('userCenter.region')}>
              {userInfo.fullRegionName || userInfo.regionName || none}
            </Descriptions.Item>
            {userInfo.enterprise ? (
              <Descriptions.Item label={t('userCenter.enterprise')}>{userInfo.enterprise}</Descriptions.Item>
            ) : null}
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
            onChange={changeTab}
            items={[
              {
                key: 'basic',
                label: (
                  <span data-testid="user-center-tab-basic">
                    <IdcardOutlined /> {t('userProfile.tabProfile')}
                  </span>
                ),
                children: info.data ? (
                  <>
                    <ProfileForm info={info.data} onSaved={afterChange} />
                    <Divider />
                    <SignatureCard signature={info.data.signature} onUpload={saveSignature} />
                  </>
                ) : (
                  <Skeleton active paragraph={{ rows: 8 }} />
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
              {
                key: 'opPassword',
                label: (
                  <span data-testid="user-center-tab-op-password">
                    <SafetyOutlined /> {t('userProfile.tabOpPassword')}
                  </span>
                ),
                children: <OpPasswordForm />,
              },
            ]}
          />
        </Card>
      </Col>
      <AvatarCropper
        src={cropSrc}
        saving={savingAvatar}
        onCancel={() => setCropSrc(null)}
        onCropped={(blob) => void saveAvatar(blob)}
      />
    </Row>
  );
}
