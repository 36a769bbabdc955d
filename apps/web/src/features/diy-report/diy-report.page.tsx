import { AppstoreOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Input,
  Pagination,
  Result,
  Segmented,
  Skeleton,
  Space,
  Tree,
  Typography,
  theme,
} from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { DIY_REPORT_KEYS, diyReportApi, type FormItem } from '../../components/diy-report/diy-report.api.ts';
import { useFormPasswordPrompt } from '../../components/diy-report/form-password.tsx';
import { openFormItem } from '../../components/diy-report/open-form-item.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import {
  ALL_KEY,
  buildCategoryTree,
  type CategoryNode,
  type SortKey,
  visibleItems,
} from './diy-report.model.ts';
import { FormItemCard } from './form-item-card.tsx';

const PAGE_SIZE = 24;

function CountLabel({ label, count }: { label: string; count: number }) {
  return (
    <span style={{ display: 'inline-flex', width: '100%', justifyContent: 'space-between', gap: 8 }}>
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>
      <Typography.Text type="secondary" style={{ flex: 'none' }}>
        {count}
      </Typography.Text>
    </span>
  );
}

function toTreeData(nodes: readonly CategoryNode[]): DataNode[] {
  return nodes.map((node) => ({
    key: node.key,
    title: <CountLabel label={node.label} count={node.count} />,
    children: toTreeData(node.children),
  }));
}

/**
 * 报表填报 (menu component `/diyReport/index`, the landing page of enterprise users): the published forms the
 * caller may open, by category, searchable; opening follows SPEC §2 with the form-password prompt of §5.
 */
export default function DiyReportPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { prompt, contextHolder } = useFormPasswordPrompt();
  const [category, setCategory] = useState<string>(ALL_KEY);
  const [keyword, setKeyword] = useState('');
  const [sort, setSort] = useState<SortKey>('recent');
  const [page, setPage] = useState(1);

  const items = useQuery({
    queryKey: DIY_REPORT_KEYS.tableList({}),
    queryFn: () => diyReportApi.tableList(),
  });
  const options = useQuery({
    queryKey: DIY_REPORT_KEYS.classifyOptions,
    queryFn: diyReportApi.classifyOptions,
    retry: false,
  });

  // The page is kept alive under its tab: coming back to it refreshes the counts and tips.
  const { pathname } = useLocation();
  const home = useRef(pathname);
  const away = useRef(false);
  const refetchItems = items.refetch;
  useEffect(() => {
    if (pathname !== home.current) away.current = true;
    else if (away.current) {
      away.current = false;
      void refetchItems();
    }
  }, [pathname, refetchItems]);

  const all = items.data ?? [];
  const tree = useMemo(
    () => buildCategoryTree(all, options.data, { uncategorized: t('diyReport.uncategorized') }),
    [all, options.data, t],
  );
  const shown = useMemo(
    () => visibleItems(all, tree, category, keyword, sort),
    [all, tree, category, keyword, sort],
  );
  const lastPage = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const current = Math.min(page, lastPage);
  const pageItems = shown.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  const open = useCallback(
    (item: FormItem) => {
      void openFormItem(item, navigate, {
        prompt,
        onTipCleared: () => void client.invalidateQueries({ queryKey: ['diyTable', 'tableList'] }),
      });
    },
    [navigate, prompt, client],
  );
  const guardedOpen = useReclickGuard(open);

  const treeData: DataNode[] = [
    { key: ALL_KEY, title: <CountLabel label={t('diyReport.all')} count={all.length} /> },
    ...toTreeData(tree),
  ];

  const refresh = () => {
    void items.refetch();
    void options.refetch();
  };

  let body: React.ReactNode;
  if (items.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} data-testid="diy-report-loading" />;
  } else if (items.isError) {
    body = (
      <Result
        status="warning"
        title={t('diyReport.loadFailed')}
        subTitle={items.error.message}
        extra={
          <Button type="primary" onClick={refresh}>
            {t('diyReport.retry')}
          </Button>
        }
        data-testid="diy-report-error"
      />
    );
  } else if (all.length === 0) {
    body = (
      <Empty
        style={{ padding: '48px 0' }}
        description={
          <Space direction="vertical" size={4}>
            <Typography.Text>{t('diyReport.empty')}</Typography.Text>
            <Typography.Text type="secondary">{t('diyReport.emptyHint')}</Typography.Text>
          </Space>
        }
        data-testid="diy-report-empty"
      />
    );
  } else if (shown.length === 0) {
    body = (
      <Empty
        style={{ padding: '48px 0' }}
        description={t('diyReport.noMatch')}
        data-testid="diy-report-no-match"
      />
    );
  } else {
    body = (
      <>
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(260px, 1fr))',
            gap: 12,
          }}
          data-testid="form-item-grid"
        >
          {pageItems.map((item) => (
            <FormItemCard key={item.id} item={item} onOpen={guardedOpen} />
          ))}
        </div>
        {shown.length > PAGE_SIZE ? (
          <Pagination
            style={{ marginTop: 16, textAlign: 'right' }}
            align="end"
            current={current}
            pageSize={PAGE_SIZE}
            total={shown.length}
            showSizeChanger={false}
            onChange={setPage}
          />
        ) : null}
      </>
    );
  }

  return (
    <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start' }} data-testid="diy-report-page">
      {contextHolder}
      <Card
        size="small"
        title={
          <span>
            <AppstoreOutlined /> {t('diyReport.categories')}
          </span>
        }
        style={{ width: 240, flex: 'none', position: 'sticky', top: 0 }}
        styles={{ body: { padding: 8, maxHeight: 'calc(100vh - 220px)', overflow: 'auto' } }}
        data-testid="diy-report-categories"
      >
        {items.isPending ? (
          <Skeleton active title={false} paragraph={{ rows: 5 }} />
        ) : (
          <>
            {options.isError ? (
              <Alert
                type="info"
                showIcon
                style={{ marginBottom: 8 }}
                title={t('diyReport.categoriesUnavailable')}
              />
            ) : null}
            <Tree
              blockNode
              defaultExpandAll
              selectedKeys={[category]}
              treeData={treeData}
              onSelect={(keys) => {
                if (keys.length === 0) return;
                setCategory(String(keys[0]));
                setPage(1);
              }}
            />
          </>
        )}
      </Card>
      <Card
        size="small"
        style={{ flex: 1, minWidth: 0 }}
        title={
          <Space size={12} wrap>
            <Typography.Text strong>{t('diyReport.title')}</Typography.Text>
            {items.data ? (
              <Typography.Text
                type="secondary"
                style={{ fontWeight: 'normal' }}
                data-testid="diy-report-total"
              >
                {t('diyReport.total', { count: shown.length })}
              </Typography.Text>
            ) : null}
          </Space>
        }
        extra={
          <Space size={8} wrap>
            <Input
              allowClear
              prefix={<SearchOutlined style={{ color: token.colorTextQuaternary }} />}
              placeholder={t('diyReport.searchPlaceholder')}
              value={keyword}
              onChange={(event) => {
                setKeyword(event.target.value);
                setPage(1);
              }}
              style={{ width: 220 }}
              aria-label={t('diyReport.searchPlaceholder')}
              data-testid="diy-report-search"
            />
            <Segmented<SortKey>
              value={sort}
              onChange={setSort}
              options={[
                { value: 'recent', label: t('diyReport.sortRecent') },
                { value: 'title', label: t('diyReport.sortTitle') },
              ]}
              aria-label={t('diyReport.sortBy')}
            />
            <Button
              icon={<ReloadOutlined />}
              onClick={refresh}
              loading={items.isFetching && !items.isPending}
              aria-label={t('diyReport.refresh')}
              title={t('diyReport.refresh')}
              data-testid="diy-report-refresh"
            />
          </Space>
        }
        data-testid="diy-report-list"
      >
        {body}
      </Card>
    </div>
  );
}
