import { SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { saveSysInfoInputSchema } from '@shuzhi/contracts/config-admin';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Form, Input, Row, Skeleton, Space, Typography, theme } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { wallClockNow } from '../../platform/time/time-zone.ts';
import { CONFIG_DEPENDENT_KEYS, configApi, type SysInfo } from './config.api.ts';

const SYS_INFO_KEY = ['sysConfig', 'sysInfo'] as const;
const EMPTY: SysInfo = { webTitle: '', webLogo: '', webCopyright: '', webIcp: '' };
const FIELDS = ['webTitle', 'webLogo', 'webCopyright', 'webIcp'] as const;

function trimmed(values: Partial<SysInfo>): SysInfo {
  return {
    webTitle: (values.webTitle ?? '').trim(),
    webLogo: (values.webLogo ?? '').trim(),
    webCopyright: (values.webCopyright ?? '').trim(),
    webIcp: (values.webIcp ?? '').trim(),
  };
}

/** Edits title, logo, copyright and ICP line (issue 4 §1); the shell's branding follows on save. */
export default function SysInfoPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm<SysInfo>();
  const info = useQuery({ queryKey: SYS_INFO_KEY, queryFn: configApi.sysInfo });
  const save = useMutation({
    mutationFn: configApi.saveSysInfo,
    onSuccess: async () => {
      // The profile, footer and watermark all show the system title.
      await Promise.all(
        [['sysConfig'], ...CONFIG_DEPENDENT_KEYS].map((queryKey) => client.invalidateQueries({ queryKey })),
      );
    },
  });

  useEffect(() => {
    if (info.data) form.setFieldsValue({ ...EMPTY, ...info.data });
  }, [info.data, form]);

  const submit = useReclickGuard((values: SysInfo) => {
    if (save.isPending) return;
    save.mutate(trimmed(values), {
      onSuccess: () => message.success(t('sysInfo.saved')),
      onError: (error) => {
        if (error instanceof UnauthorizedError) return;
        const { fields, rest } = serverFieldErrors(error, FIELDS);
        if (fields.length > 0)
          form.setFields(fields.map((f) => ({ name: f.name as keyof SysInfo, errors: f.errors })));
        if (fields.length === 0 || rest.length > 0) message.error(rest.join('; ') || error.message);
      },
    });
  });

  const watched = Form.useWatch([], form) as Partial<SysInfo> | undefined;
  const preview = trimmed(watched ?? info.data ?? EMPTY);

  if (info.isError) {
    return (
      <Card>
        <Alert
          type="error"
          showIcon
          title={t('crud.loadFailed')}
          description={info.error.message}
          action={
            <Button size="small" onClick={() => void info.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Row gutter={[16, 16]} data-testid="sys-info-page">
      <Col xs={24} xl={12}>
        <Card title={t('sysInfo.title')} style={{ height: '100%' }}>
          <Typography.Paragraph type="secondary">{t('sysInfo.intro')}</Typography.Paragraph>
          {info.isLoading ? (
            <Skeleton active paragraph={{ rows: 6 }} />
          ) : (
            <Form
              form={form}
              layout="vertical"
              initialValues={EMPTY}
              onFinish={submit}
              disabled={save.isPending}
              data-testid="sys-info-form"
            >
              <Form.Item name="webTitle" label={t('sysInfo.webTitle')} extra={t('sysInfo.webTitleHelp')}>
                <Input allowClear maxLength={64} data-testid="sys-info-title" />
              </Form.Item>
              <Form.Item
                name="webLogo"
                label={t('sysInfo.webLogo')}
                extra={t('sysInfo.webLogoHelp')}
                rules={[
                  {
                    validator: (_, value: unknown) =>
                      !value || saveSysInfoInputSchema.shape.webLogo.safeParse(value).success
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('sysInfo.urlRule'))),
                  },
                ]}
              >
                <Input allowClear maxLength={512} data-testid="sys-info-logo" />
              </Form.Item>
              <Form.Item
                name="webCopyright"
                label={t('sysInfo.webCopyright')}
                extra={t('sysInfo.webCopyrightHelp')}
              >
                <Input allowClear maxLength={128} data-testid="sys-info-copyright" />
              </Form.Item>
              <Form.Item name="webIcp" label={t('sysInfo.webIcp')} extra={t('sysInfo.webIcpHelp')}>
                <Input allowClear maxLength={64} data-testid="sys-info-icp" />
              </Form.Item>
              <Auth value="sysConfig:update">
                <Space>
                  <Button
                    type="primary"
                    htmlType="submit"
                    icon={<SaveOutlined />}
                    loading={save.isPending}
                    data-testid="sys-info-save"
                  >
                    {t('common.save')}
                  </Button>
                  <Button
                    icon={<UndoOutlined />}
                    onClick={() => form.setFieldsValue({ ...EMPTY, ...info.data })}
                    data-testid="sys-info-reset"
                  >
                    {t('sysInfo.reset')}
                  </Button>
                </Space>
              </Auth>
            </Form>
          )}
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('sysInfo.preview')} style={{ height: '100%' }}>
          <BrandingPreview info={preview} />
        </Card>
      </Col>
    </Row>
  );
}

function isDarkColor(hex: string): boolean {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!match) return false;
  const n = Number.parseInt(match[1], 16);
  return (((n >> 16) & 255) * 299 + ((n >> 8) & 255) * 587 + (n & 255) * 114) / 1000 < 150;
}

/** The top bar and footer as they will look, drawn from the form as it is typed. */
function BrandingPreview({ info }: { info: SysInfo }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const branding = useBranding();
  const dark = useThemeStore((state) => state.isIsDark);
  const barColor = useThemeStore((state) => (dark ? token.colorBgContainer : state.topBarColor));
  const barText = dark || isDarkColor(barColor) ? 'rgba(255,255,255,0.92)' : token.colorText;
  const title = info.webTitle || branding.systemName;
  const logo = info.webLogo || branding.favicon;
  const copyright =
    info.webCopyright ||
    t('footer.copyright', { year: wallClockNow().year, unit: branding.unitName || branding.systemName });
  const footer = [
    branding.organizer ? t('login.organizer', { name: branding.organizer }) : '',
    branding.phone ? t('login.supportPhone', { phone: branding.phone }) : '',
    copyright,
  ].filter(Boolean);
  const frame = {
    border: `1px solid ${token.colorBorderSecondary}`,
    borderRadius: token.borderRadiusLG,
    overflow: 'hidden',
  };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <div>
        <Typography.Text type="secondary">{t('sysInfo.previewHeader')}</Typography.Text>
        <div style={{ ...frame, marginTop: 8 }}>
          <div
            style={{
              display: 'flex',
              alignItems: 'center',
              gap: 10,
              height: 56,
              padding: '0 20px',
              background: barColor,
              color: barText,
            }}
          >
            <BrandLogo key={logo} src={logo} text={branding.profile?.shortName ?? t('app.name')} size={30} />
            <span
              style={{
                fontSize: 17,
                fontWeight: 600,
                whiteSpace: 'nowrap',
                overflow: 'hidden',
                textOverflow: 'ellipsis',
              }}
              data-testid="sys-info-preview-title"
            >
              {title}
            </span>
          </div>
        </div>
      </div>
      <div>
        <Typography.Text type="secondary">{t('sysInfo.previewFooter')}</Typography.Text>
        <div
          style={{
            ...frame,
            marginTop: 8,
            padding: '16px 12px',
            textAlign: 'center',
            fontSize: 12,
            lineHeight: '20px',
            color: token.colorTextTertiary,
            background: token.colorBgLayout,
          }}
          data-testid="sys-info-preview-footer"
        >
          <div>{footer.join(' · ')}</div>
          {info.webIcp ? <div>{info.webIcp}</div> : null}
        </div>
      </div>
    </Space>
  );
}
