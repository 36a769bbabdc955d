import { FileTextOutlined, LockOutlined } from '@ant-design/icons';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, List, Select, Space, Tag, Typography, theme } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DIY_REPORT_KEYS, diyReportApi } from '../../components/diy-report/diy-report.api.ts';
import { canOpenFormItem } from '../../components/diy-report/open-form-item.ts';
import { ENTERPRISE_KEYS, enterpriseApi } from './enterprise.api.ts';
import {
  categoryParam,
  categoryTiles,
  inCategory,
  matchesKeyword,
  parseCategory,
} from './enterprise.model.ts';
import { CollectStar, LoadState, PortalShell, usePortalActions } from './portal-parts.tsx';

const PAGE_SIZE = 10;

/**
 * 搜索表单 `/enterprise/search` (issue 6 §5): every form the caller may open (报表填报's list), searched by
 * title or category, optionally within one category; each result fills in (or opens), shows its detail and
 * takes a favourite. The keyword and category live in the URL.
 */
export default function EnterpriseSearchPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [params, setParams] = useSearchParams();
  const actions = usePortalActions();
  const keyword = params.get('keyword') ?? '';
  const category = parseCategory(params.get('category'));
  const [typed, setTyped] = useState(keyword);
  const [page, setPage] = useState(1);

  const forms = useQuery({
    queryKey: DIY_REPORT_KEYS.tableList({}),
    queryFn: () => diyReportApi.tableList(),
  });
  const favourites = useQuery({ queryKey: ENTERPRISE_KEYS.collectList, queryFn: enterpriseApi.collectList });
  const options = useQuery({
    queryKey: DIY_REPORT_KEYS.classifyOptions,
    queryFn: diyReportApi.classifyOptions,
    retry: false,
  });
  const all = forms.data ?? [];
  const collected = useMemo(() => new Set((favourites.data ?? []).map((f) => f.id)), [favourites.data]);
  const tiles = useMemo(
    () => categoryTiles(all, options.data, t('enterprise.uncategorized')).filter((tile) => tile.count > 0),
    [all, options.data, t],
  );
  const results = useMemo(
    () =>
      all.filter(
        (item) =>
          matchesKeyword(item, keyword) &&
          (category === undefined || inCategory(item, category, options.data)),
      ),
    [all, keyword, category, options.data],
  );

  const setFilter = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true });
    setPage(1);
  };

  const renderItem = (item: FormItem) => {
    const openable = canOpenFormItem(item);
    return (
      <List.Item
        key={item.id}
        data-testid="search-result"
        actions={[
          <CollectStar
            key="star"
            collected={collected.has(item.id)}
            pending={actions.pendingId === item.id}
            onToggle={() => actions.toggleCollect(item.id, collected.has(item.id))}
          />,
          <Button
            key="fill"
            type="primary"
            size="small"
            disabled={!openable}
            title={openable ? undefined : t('enterprise.cannotFill')}
            onClick={() => actions.fill(item)}
            data-testid="search-fill"
          >
            {item.myAuth.add ? t('enterprise.fill') : t('enterprise.open')}
          </Button>,
          <Button
            key="detail"
            size="small"
            onClick={() => actions.openDetail(item.id)}
            data-testid="search-detail"
          >
            {t('enterprise.detail')}
          </Button>,
        ]}
      >
        <List.Item.Meta
          avatar={<FileTextOutlined style={{ color: token.colorPrimary, fontSize: 20 }} />}
          title={
            <Space size={6}>
              <Typography.Link onClick={() => actions.openDetail(item.id)}>{item.title}</Typography.Link>
              {item.isShowPwd && <LockOutlined aria-label={t('enterprise.locked')} />}
              {!item.isEnable && <Tag>{t('enterprise.disabled')}</Tag>}
            </Space>
          }
          description={
            <Space size={12} wrap>
              <Tag>{item.categoryName ?? t('enterprise.uncategorized')}</Tag>
              {item.ownerOrgName && (
                <Typography.Text type="secondary">
                  {t('enterprise.owner')}: {item.ownerOrgName}
                </Typography.Text>
              )}
            </Space>
          }
        />
      </List.Item>
    );
  };

  return (
    <PortalShell active="search">
      {actions.contextHolder}
      <Card>
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Space.Compact style={{ width: '100%', maxWidth: 720 }}>
            <Select
              data-testid="search-category"
              style={{ width: 180 }}
              aria-label={t('enterprise.category')}
              value={category === undefined ? '' : categoryParam(category)}
              onChange={(value: string) => setFilter('category', value)}
              options={[
                { value: '', label: t('enterprise.allCategories') },
                ...tiles.map((tile) => ({ value: categoryParam(tile.id), label: tile.label })),
              ]}
            />
            <Input.Search
              data-testid="search-input"
              size="middle"
              allowClear
              enterButton
              autoFocus
              placeholder={t('enterprise.searchPlaceholder')}
              value={typed}
              onChange={(event) => {
                setTyped(event.target.value);
                if (event.target.value === '') setFilter('keyword', undefined);
              }}
              onSearch={(value) => setFilter('keyword', value.trim())}
            />
          </Space.Compact>
          <Typography.Text type="secondary" data-testid="search-count">
            {keyword || category !== undefined
              ? t('enterprise.searchResults', { count: results.length })
              : t('enterprise.searchHint')}
          </Typography.Text>
          <LoadState pending={forms.isPending} error={forms.error} onRetry={() => void forms.refetch()}>
            <List
              data-testid="search-results"
              dataSource={results}
              renderItem={renderItem}
              locale={{ emptyText: all.length === 0 ? t('enterprise.empty') : t('enterprise.noMatch') }}
              pagination={
                results.length > PAGE_SIZE
                  ? { current: page, pageSize: PAGE_SIZE, onChange: setPage, showSizeChanger: false }
                  : false
              }
            />
          </LoadState>
        </Space>
      </Card>
    </PortalShell>
  );
}
