import { KeyOutlined } from '@ant-design/icons';
import { STATUS } from '@shuzhi/contracts/envelope';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Input, Modal, Popconfirm, Select, Typography } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { Auth } from '../../platform/access/access.tsx';
import type { Resource } from '../../platform/data/resource.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import {
  OPEN_ACCESS_KEYS,
  type OpenAccessFilters,
  type OpenAccessItem,
  type OpenAccessSecret,
  openAccessApi,
  openAccessResource,
  type PickableUser,
} from './open-access.api.ts';

const MONO = { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' };

const userLabel = (u: { account: string | null; realName: string | null; orgName?: string | null }) =>
  `${u.realName ?? ''}（${u.account ?? ''}）${u.orgName ? ` · ${u.orgName}` : ''}`;

/** Searchable picker of the user a key acts as (`POST /api/sysUser/page`). */
function BindUserSelect({
  value,
  onChange,
  current,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  current?: OpenAccessItem;
}) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const users = useQuery({
    queryKey: OPEN_ACCESS_KEYS.pick(deferred),
    queryFn: () => openAccessApi.searchUsers(deferred),
    staleTime: 30_000,
  });
  const found = users.data?.items ?? [];
  const options = found.map((u: PickableUser) => ({ value: u.id, label: userLabel(u) }));
  // The key's present user stays selectable (and labelled) even when the search does not list it.
  if (current && !found.some((u) => u.id === current.bindUserId)) {
    options.unshift({
      value: current.bindUserId,
      label: userLabel({
        account: current.bindUserAccount,
        realName: current.bindUserRealName,
        orgName: current.bindUserOrgName,
      }),
    });
  }
  return (
    <Select<number>
      showSearch
      allowClear
      value={value}
      onChange={(next) => onChange?.(next ?? undefined)}
      onSearch={setKeyword}
      filterOption={false}
      options={options}
      loading={users.isFetching}
      placeholder={t('sysOpenAccess.bindUserPlaceholder')}
      notFoundContent={users.isFetching ? null : t('sysOpenAccess.noUsers')}
      data-testid="open-access-field-user"
    />
  );
}

/** A shell example of the REFERENCE signing rule, with this key, for the token endpoint. */
function signingExample(secret: OpenAccessSecret, comment: string): string {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return [
    `# ${comment}`,
    `KEY='${secret.accessKey}'`,
    `SECRET='${secret.accessSecret}'`,
    'TS=$(date +%s)',
    'NONCE=$(openssl rand -hex 16)',
    `SIGN=$(printf '%s' "GET&/api/auth/token&$KEY&$TS&$NONCE" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64)`,
    `curl -s "${origin}/api/auth/token" \\`,
    `  -H "accessKey: $KEY" -H "timestamp: $TS" -H "nonce: $NONCE" -H "sign: $SIGN"`,
  ].join('\n');
}

/** Shows a new secret once: copy buttons, a warning, and how to sign with it. */
function SecretModal({ secret, onClose }: { secret: OpenAccessSecret | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={secret !== null}
      title={t('sysOpenAccess.secretTitle')}
      width={760}
      onCancel={onClose}
      mask={{ closable: false }}
      footer={
        <Button type="primary" onClick={onClose} data-testid="open-access-secret-done">
          {t('sysOpenAccess.saved')}
        </Button>
      }
      destroyOnHidden
      data-testid="open-access-secret-modal"
    >
      {secret ? (
        <>
          <Alert
            type="warning"
            showIcon
            title={t('sysOpenAccess.secretWarning')}
            style={{ marginBottom: 16 }}
          />
          <Descriptions column={1} bordered size="small" styles={{ label: { width: 120 } }}>
            <Descriptions.Item label={t('sysOpenAccess.accessKey')}>
              <Typography.Text copyable style={MONO} data-testid="open-access-new-key">
                {secret.accessKey}
              </Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('sysOpenAccess.accessSecret')}>
              <Typography.Text copyable style={MONO} data-testid="open-access-new-secret">
                {secret.accessSecret}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('sysOpenAccess.signTitle')}
          </Typography.Title>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            {t('sysOpenAccess.signHint')}
          </Typography.Paragraph>
          <Typography.Paragraph
            copyable={{ text: signingExample(secret, t('sysOpenAccess.signComment')) }}
            style={{ marginBottom: 0 }}
          >
            <pre style={{ ...MONO, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', margin: 0 }}>
              {signingExample(secret, t('sysOpenAccess.signComment'))}
            </pre>
          </Typography.Paragraph>
        </>
      ) : null}
    </Modal>
  );
}

/** 开放接口 (issue 3 §1): access keys bound to users, for signed server-to-server calls. */
export default function OpenAccessPage() {
  const { t } = useTranslation();
  const [secret, setSecret] = useState<OpenAccessSecret | null>(null);
  const [resetting, setResetting] = useState<number | null>(null);
  // The add answer carries the secret: shown once, then gone.
  const resource = useMemo<Resource<OpenAccessItem, OpenAccessFilters>>(
    () => ({
      ...openAccessResource,
      add: async (body) => {
        const created = (await openAccessResource.add(body)) as OpenAccessSecret;
        setSecret(created);
        return created;
      },
    }),
    [],
  );

  const resetSecret = async (row: OpenAccessItem) => {
    setResetting(row.id);
    try {
      setSecret(await openAccessApi.resetSecret(row.id));
    } catch (error) {
      feedback.error(error instanceof Error ? error.message : t('crud.failed'));
    } finally {
      setResetting(null);
    }
  };

  const columns: CrudColumn<OpenAccessItem>[] = [
    {
      key: 'accessKey',
      title: t('sysOpenAccess.accessKey'),
      sort: true,
      render: (value: string) => (
        <Typography.Text copyable style={MONO}>
          {value}
        </Typography.Text>
      ),
      widthText: (row) => `${row.accessKey}xxxx`,
    },
    {
      key: 'bindUserAccount',
      title: t('sysOpenAccess.bindUser'),
      sort: true,
      render: (_: unknown, row: OpenAccessItem) =>
        userLabel({ account: row.bindUserAccount, realName: row.bindUserRealName }),
      widthText: (row) => userLabel({ account: row.bindUserAccount, realName: row.bindUserRealName }),
    },
    { key: 'bindUserOrgName', title: t('sysOpenAccess.orgName') },
    {
      key: 'lastUsedTime',
      title: t('sysOpenAccess.lastUsedTime'),
      sort: true,
      render: (value: string | null) =>
        value ?? <Typography.Text type="secondary">{t('sysOpenAccess.neverUsed')}</Typography.Text>,
      widthText: () => '2026-01-01 00:00:00',
    },
    // The creation time is left to the export: the row must fit 1366 px with its status and actions.
    { key: 'remark', title: t('sysOpenAccess.remark'), width: 160, ellipsis: true },
  ];

  const formFields: CrudFormField<OpenAccessItem>[] = [
    {
      name: 'bindUserId',
      label: t('sysOpenAccess.bindUser'),
      rules: [{ required: true, message: t('crud.requiredSelect', { label: t('sysOpenAccess.bindUser') }) }],
      input: ({ record }) => <BindUserSelect current={record} />,
    },
    {
      name: 'remark',
      label: t('sysOpenAccess.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount data-testid="open-access-field-remark" />,
    },
  ];

  return (
    <Card title={t('sysOpenAccess.title')} data-testid="open-access-page">
      <CrudPage<OpenAccessItem, OpenAccessFilters>
        resource={resource}
        entityName={t('sysOpenAccess.entity')}
        columns={columns}
        searchFields={[
          { name: 'accessKey', label: t('sysOpenAccess.accessKey') },
          { name: 'bindUser', label: t('sysOpenAccess.bindUser') },
        ]}
        formFields={formFields}
        permissions={{
          add: 'sysOpenAccess:add',
          update: 'sysOpenAccess:update',
          delete: 'sysOpenAccess:delete',
          setStatus: 'sysOpenAccess:setStatus',
          export: 'sysOpenAccess:export',
        }}
        statusField="status"
        formDefaults={{ status: STATUS.enabled }}
        toFormValues={(record) => ({ bindUserId: record.bindUserId, remark: record.remark ?? '' })}
        toPayload={(values) => ({
          bindUserId: values.bindUserId as number,
          remark: (values.remark as string | undefined) || null,
        })}
        rowActions={(row) => (
          <Auth value="sysOpenAccess:resetSecret">
            <Popconfirm
              title={t('sysOpenAccess.resetConfirmTitle')}
              description={t('sysOpenAccess.resetConfirm')}
              onConfirm={() => resetSecret(row)}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
            >
              <Button
                type="link"
                size="small"
                icon={<KeyOutlined />}
                loading={resetting === row.id}
                data-testid="open-access-reset"
              >
                {t('sysOpenAccess.resetSecret')}
              </Button>
            </Popconfirm>
          </Auth>
        )}
        extraActionWidth={100}
        exportFileName={t('sysOpenAccess.exportName')}
        testId="open-access"
      />
      <SecretModal secret={secret} onClose={() => setSecret(null)} />
    </Card>
  );
}
