import { DesktopOutlined } from '@ant-design/icons';
import {
  COCKPIT_MAX_FORMS,
  COCKPIT_PANELS,
  COCKPIT_SCALE_MODES,
  type CockpitConfig,
} from '@shuzhi/contracts/cockpit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  InputNumber,
  Popconfirm,
  Radio,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { nowInZone } from '../../platform/time/time-zone.ts';
import { COCKPIT_KEYS, type CockpitLink, cockpitApi } from './cockpit.api.ts';

const absolute = (url: string) => `${window.location.origin}${url}`;

/** 展示设置 (cockpit:config): panels, forms, scaling and refresh, saved for the tenant. */
function SettingsCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [form] = Form.useForm<CockpitConfig>();
  const config = useQuery({ queryKey: COCKPIT_KEYS.config, queryFn: cockpitApi.config, retry: false });
  const forms = useQuery({ queryKey: COCKPIT_KEYS.forms, queryFn: cockpitApi.forms, retry: false });
  useEffect(() => {
    if (config.data) form.setFieldsValue(config.data);
  }, [config.data, form]);
  const save = useMutation({
    mutationFn: (body: CockpitConfig) => cockpitApi.saveConfig(body),
    onSuccess: () => {
      feedback.success(t('cockpit.config.saved'));
      void client.invalidateQueries({ queryKey: ['cockpit'] });
    },
    onError: (error) => feedback.error(error.message),
  });
  if (config.isError) return <LoadFailedAlert error={config.error} onRetry={() => void config.refetch()} />;
  return (
    <Card title={t('cockpit.config.settings')} loading={config.isPending}>
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => save.mutate(values)}
        style={{ maxWidth: 760 }}
      >
        <Form.Item name="panels" label={t('cockpit.config.panels')}>
          <Checkbox.Group
            options={COCKPIT_PANELS.map((p) => ({ value: p, label: t(`cockpit.panel.${p}`) }))}
          />
        </Form.Item>
        <Form.Item name="formIds" label={t('cockpit.config.forms')} extra={t('cockpit.config.formsHint')}>
          <Select
            mode="multiple"
            maxCount={COCKPIT_MAX_FORMS}
            loading={forms.isPending}
            optionFilterProp="label"
            options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.title }))}
            aria-label={t('cockpit.config.forms')}
          />
        </Form.Item>
        <Form.Item name="scaleMode" label={t('cockpit.config.scaleMode')}>
          <Radio.Group
            options={COCKPIT_SCALE_MODES.map((m) => ({ value: m, label: t(`cockpit.config.${m}`) }))}
          />
        </Form.Item>
        <Form.Item name="refreshSeconds" label={t('cockpit.config.refresh')} rules={[{ required: true }]}>
          <InputNumber min={30} max={3600} precision={0} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('cockpit.config.save')}
        </Button>
      </Form>
    </Card>
  );
}

function stateOf(link: CockpitLink): 'revoked' | 'expired' | 'active' {
  if (link.revoked) return 'revoked';
  return link.expireTime <= nowInZone() ? 'expired' : 'active';
}
const STATE_COLORS = { active: 'green', expired: 'default', revoked: 'red' } as const;

/** 免登录链接 (cockpit:config): signed, expiring links; copy or revoke. */
function LinksCard() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [days, setDays] = useState<number | null>(30);
  const links = useQuery({ queryKey: COCKPIT_KEYS.links, queryFn: cockpitApi.links, retry: false });
  const refresh = () => void client.invalidateQueries({ queryKey: COCKPIT_KEYS.links });
  const add = useMutation({
    mutationFn: () => cockpitApi.addLink(days ?? 30),
    onSuccess: refresh,
    onError: (error) => feedback.error(error.message),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => cockpitApi.revokeLink(id),
    onSuccess: refresh,
    onError: (error) => feedback.error(error.message),
  });
  const copy = async (url: string) => {
    await navigator.clipboard.writeText(absolute(url));
    feedback.success(t('cockpit.config.copied'));
  };
  return (
    <Card title={t('cockpit.config.links')}>
      <Alert type="info" showIcon message={t('cockpit.config.linksHint')} style={{ marginBottom: 16 }} />
      <Space style={{ marginBottom: 16 }}>
        <span>{t('cockpit.config.days')}</span>
        <InputNumber
          min={1}
          max={366}
          precision={0}
          value={days}
          onChange={setDays}
          aria-label={t('cockpit.config.days')}
        />
        <Button type="primary" onClick={() => add.mutate()} loading={add.isPending}>
          {t('cockpit.config.addLink')}
        </Button>
      </Space>
      {links.isError ? <LoadFailedAlert error={links.error} onRetry={() => void links.refetch()} /> : null}
      <Table<CockpitLink>
        rowKey="id"
        size="small"
        loading={links.isPending}
        dataSource={links.data ?? []}
        pagination={false}
        scroll={{ x: 760 }}
        columns={[
          {
            key: 'url',
            title: 'URL',
            render: (_, l) => (
              <a href={l.url} target="_blank" rel="noreferrer" data-testid="cockpit-link-url">
                {absolute(l.url)}
              </a>
            ),
            ellipsis: true,
          },
          {
            key: 'expire',
            title: t('cockpit.config.expireTime'),
            width: 170,
            render: (_, l) => l.expireTime,
          },
          {
            key: 'user',
            title: t('cockpit.config.createUser'),
            width: 110,
            render: (_, l) => l.createUserName,
          },
          {
            key: 'state',
            title: t('cockpit.config.state'),
            width: 90,
            render: (_, l) => {
              const state = stateOf(l);
              return <Tag color={STATE_COLORS[state]}>{t(`cockpit.config.${state}`)}</Tag>;
            },
          },
          {
            key: 'actions',
            width: 150,
            render: (_, l) =>
              stateOf(l) === 'active' ? (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => void copy(l.url)}>
                    {t('cockpit.config.copy')}
                  </Button>
                  <Popconfirm title={t('cockpit.config.revokeConfirm')} onConfirm={() => revoke.mutate(l.id)}>
                    <Button type="link" size="small" danger>
                      {t('cockpit.config.revoke')}
                    </Button>
                  </Popconfirm>
                </Space>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}

/** 驾驶舱 (menu page `/jsc/config`): opens the big screen; admins set it up and share it. */
export default function CockpitConfigPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Space>
          <Button type="primary" icon={<DesktopOutlined />} href="/jsc" target="_blank">
            {t('cockpit.config.open')}
          </Button>
          {can('cockpit:config') ? null : <span>{t('cockpit.config.noConfig')}</span>}
        </Space>
      </Card>
      {can('cockpit:config') ? (
        <>
          <SettingsCard />
          <LinksCard />
        </>
      ) : null}
    </Space>
  );
}
