import { DeleteOutlined, KeyOutlined, LockOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { CACHE_PREFIX_MIN } from '@shuzhi/contracts/server';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Input,
  Row,
  Skeleton,
  Space,
  Tag,
  Tooltip,
  Typography,
  theme,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CodeBlock } from '../../components/log-view/log-view.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { formatDuration } from '../../platform/format/format.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import type { TextKey } from '../../platform/i18n/text-key.ts';
import { type CacheValue, cacheApi } from './cache.api.ts';
import { deletablePrefix, filterKeys, keyGroups } from './cache-keys.ts';

const KEYS = ['sysCache', 'keyList'] as const;
const valueKey = (key: string | null) => ['sysCache', 'value', key] as const;
const GROUP_CHIPS = 12;
const LIST_HEIGHT = 'calc(100vh - 400px)';

const TYPE_LABELS = {
  json: 'cache.typeJson',
  string: 'cache.typeString',
  number: 'cache.typeNumber',
  boolean: 'cache.typeBoolean',
  null: 'cache.typeNull',
} as const satisfies Record<CacheValue['type'], TextKey>;

/** 缓存管理 (issue 4 §7): the cache's keys on the left, the chosen key's value on the right. */
export default function CachePage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const { token } = theme.useToken();
  const [search, setSearch] = useState('');
  const [group, setGroup] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery({ queryKey: KEYS, queryFn: () => cacheApi.keyList() });
  const keys = list.data?.keys ?? [];
  const groups = useMemo(() => keyGroups(keys), [keys]);
  const shown = useMemo(() => filterKeys(keys, search, group), [keys, search, group]);

  if (list.isError) {
    return (
      <Card>
        <Alert
          type="error"
          showIcon
          title={t('crud.loadFailed')}
          description={list.error.message}
          action={
            <Button size="small" onClick={() => void list.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Row gutter={[16, 16]} data-testid="cache-page">
      <Col xs={24} lg={10} xl={9} xxl={8}>
        <Card
          title={
            <Space size={8}>
              <span>{t('cache.keys')}</span>
              {list.data ? (
                <Tag color={list.data.kind === 'redis' ? 'red' : 'blue'} data-testid="cache-kind">
                  {t(list.data.kind === 'redis' ? 'cache.kindRedis' : 'cache.kindMemory')}
                </Tag>
              ) : null}
            </Space>
          }
          extra={
            <Tooltip title={t('cache.refresh')}>
              <Button
                type="text"
                icon={<ReloadOutlined spin={list.isFetching} />}
                onClick={() => void list.refetch()}
                aria-label={t('cache.refresh')}
                data-testid="cache-refresh"
              />
            </Tooltip>
          }
          styles={{ body: { padding: 12 } }}
        >
          <Space orientation="vertical" size={8} style={{ width: '100%' }}>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('cache.search')}
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              data-testid="cache-search"
            />
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }} data-testid="cache-groups">
              <Tag.CheckableTag checked={group === null} onChange={() => setGroup(null)}>
                {t('cache.all')} ({keys.length})
              </Tag.CheckableTag>
              {groups.slice(0, GROUP_CHIPS).map((g) => (
                <Tag.CheckableTag
                  key={g.prefix}
                  checked={group === g.prefix}
                  onChange={(on) => setGroup(on ? g.prefix : null)}
                  data-testid={`cache-group-${g.prefix}`}
                >
                  {g.prefix} ({g.count})
                </Tag.CheckableTag>
              ))}
            </div>
            {list.data?.truncated ? (
              <Alert type="warning" showIcon title={t('cache.truncated', { count: keys.length })} />
            ) : null}
            <div
              role="listbox"
              aria-label={t('cache.keys')}
              data-testid="cache-key-list"
              style={{
                height: LIST_HEIGHT,
                minHeight: 240,
                overflow: 'auto',
                border: `1px solid ${token.colorBorderSecondary}`,
                borderRadius: token.borderRadius,
              }}
            >
              {list.isLoading ? (
                <Skeleton active style={{ padding: 12 }} />
              ) : shown.length === 0 ? (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description={t(keys.length === 0 ? 'cache.noKeys' : 'cache.noMatch')}
                />
              ) : (
                shown.map((key) => (
                  <div
                    key={key}
                    role="option"
                    aria-selected={selected === key}
                    tabIndex={0}
                    title={key}
                    data-testid="cache-key"
                    data-key={key}
                    onClick={() => setSelected(key)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        setSelected(key);
                      }
                    }}
                    style={{
                      display: 'flex',
                      alignItems: 'center',
                      gap: 8,
                      padding: '6px 10px',
                      cursor: 'pointer',
                      fontFamily: token.fontFamilyCode,
                      fontSize: 12.5,
                      borderBottom: `1px solid ${token.colorSplit}`,
                      background: selected === key ? token.controlItemBgActive : undefined,
                      color: selected === key ? token.colorPrimary : undefined,
                    }}
                  >
                    <KeyOutlined style={{ color: token.colorTextTertiary, flex: 'none' }} />
                    <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {key}
                    </span>
                  </div>
                ))
              )}
            </div>
            <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
              <Typography.Text type="secondary" data-testid="cache-total">
                {t('cache.total', { count: shown.length })}
              </Typography.Text>
              {can('sysCache:delete') ? (
                <DeleteByPrefixButton
                  prefix={deletablePrefix(search, group)}
                  onDone={() => {
                    setGroup(null);
                    setSelected(null);
                  }}
                />
              ) : null}
            </div>
          </Space>
        </Card>
      </Col>
      <Col xs={24} lg={14} xl={15} xxl={16}>
        <ValueCard
          cacheKey={selected}
          onDeleted={() => setSelected(null)}
          canDetail={can('sysCache:detail')}
        />
      </Col>
    </Row>
  );
}

/** The chosen key: type, time to live, size and value (secrets come masked from the server). */
function ValueCard({
  cacheKey,
  onDeleted,
  canDetail,
}: {
  cacheKey: string | null;
  onDeleted: () => void;
  canDetail: boolean;
}) {
  const { t } = useTranslation();
  const value = useQuery({
    queryKey: valueKey(cacheKey),
    queryFn: () => cacheApi.value(cacheKey as string),
    enabled: cacheKey !== null && canDetail,
  });
  const data = value.data;
  return (
    <Card
      title={
        <Typography.Text ellipsis style={{ maxWidth: '100%' }} data-testid="cache-value-title">
          {cacheKey ?? t('cache.value')}
        </Typography.Text>
      }
      extra={
        cacheKey ? (
          <Space size={4}>
            <Tooltip title={t('cache.refresh')}>
              <Button
                type="text"
                icon={<ReloadOutlined spin={value.isFetching} />}
                onClick={() => void value.refetch()}
                aria-label={t('cache.refresh')}
              />
            </Tooltip>
            <Auth value="sysCache:delete">
              <DeleteKeyButton cacheKey={cacheKey} onDone={onDeleted} />
            </Auth>
          </Space>
        ) : null
      }
      style={{ height: '100%' }}
      data-testid="cache-value"
    >
      {cacheKey === null ? (
        <Empty description={t('cache.pick')} style={{ padding: '48px 0' }} />
      ) : value.isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : value.isError ? (
        <Alert type="error" showIcon title={t('crud.loadFailed')} description={value.error.message} />
      ) : !data ? (
        <Alert type="info" showIcon title={t('cache.gone')} data-testid="cache-value-gone" />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 3 }}
            items={[
              { key: 'type', label: t('cache.type'), children: <Tag>{t(TYPE_LABELS[data.type])}</Tag> },
              {
                key: 'ttl',
                label: t('cache.ttl'),
                children: (
                  <span data-testid="cache-value-ttl">
                    {data.ttlSeconds === null ? t('cache.never') : formatDuration(t, data.ttlSeconds)}
                  </span>
                ),
              },
              { key: 'size', label: t('cache.size'), children: t('cache.chars', { count: data.size }) },
            ]}
          />
          {data.truncated ? (
            <Alert type="warning" showIcon title={t('cache.valueTruncated', { count: data.value.length })} />
          ) : null}
          <CodeBlock text={data.value} maxHeight={560} testId="cache-value-text" />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <LockOutlined /> {t('cache.masked')}
          </Typography.Text>
        </Space>
      )}
    </Card>
  );
}

function useRefreshKeys() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: ['sysCache'] });
}

function errorText(error: unknown, fallback: string): string | null {
  if (error instanceof UnauthorizedError) return null;
  return error instanceof Error && error.message ? error.message : fallback;
}

function DeleteKeyButton({ cacheKey, onDone }: { cacheKey: string; onDone: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const refresh = useRefreshKeys();
  const run = useReclickGuard(async () => {
    try {
      await cacheApi.remove(cacheKey);
      message.success(t('cache.deleted'));
      onDone();
      await refresh();
    } catch (error) {
      const text = errorText(error, t('crud.failed'));
      if (text) message.error(text);
    }
  });
  return (
    <Button
      danger
      icon={<DeleteOutlined />}
      data-testid="cache-delete"
      onClick={() =>
        modal.confirm({
          title: t('cache.deleteTitle'),
          content: t('cache.deleteContent', { key: cacheKey }),
          okText: t('cache.delete'),
          okType: 'danger',
          okButtonProps: { danger: true, 'data-testid': 'cache-delete-ok' } as never,
          cancelText: t('common.cancel'),
          onOk: () => run(),
        })
      }
    >
      {t('cache.delete')}
    </Button>
  );
}

/**
 * 按前缀删除: counts the keys that start with the prefix on the server first and says how many will go; nothing
 * is asked when none does.
 */
export function DeleteByPrefixButton({ prefix, onDone }: { prefix: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const refresh = useRefreshKeys();
  const [counting, setCounting] = useState(false);

  const remove = async (p: string) => {
    try {
      const count = await cacheApi.removeByPrefix(p);
      message.success(t('cache.deletedPrefix', { count }));
      onDone();
      await refresh();
    } catch (error) {
      const text = errorText(error, t('crud.failed'));
      if (text) message.error(text);
    }
  };

  const ask = useReclickGuard(async () => {
    if (!prefix) return;
    setCounting(true);
    let count: number;
    try {
      const found = await cacheApi.keyList(prefix);
      count = found.keys.length;
    } catch (error) {
      const text = errorText(error, t('crud.failed'));
      if (text) message.error(text);
      return;
    } finally {
      setCounting(false);
    }
    if (count === 0) {
      message.info(t('cache.deletePrefixNone', { prefix }));
      return;
    }
    modal.confirm({
      title: t('cache.deletePrefixTitle'),
      content: (
        <span data-testid="cache-delete-prefix-content">
          {t('cache.deletePrefixContent', { prefix, count })}
        </span>
      ),
      okText: t('cache.delete'),
      okType: 'danger',
      okButtonProps: { danger: true, 'data-testid': 'cache-delete-prefix-ok' } as never,
      cancelText: t('common.cancel'),
      onOk: () => remove(prefix),
    });
  });

  return (
    <Tooltip title={prefix ? undefined : t('cache.deletePrefixHint', { min: CACHE_PREFIX_MIN })}>
      <Button
        danger
        size="small"
        icon={<DeleteOutlined />}
        disabled={!prefix}
        loading={counting}
        onClick={() => void ask()}
        data-testid="cache-delete-prefix"
      >
        {t('cache.deletePrefix')}
      </Button>
    </Tooltip>
  );
}
