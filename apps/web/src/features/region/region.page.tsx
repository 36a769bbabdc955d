import { EnvironmentOutlined, SyncOutlined } from '@ant-design/icons';
import { REGION_MAX_LEVEL, regionAddInputSchema } from '@shuzhi/contracts/region';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Empty,
  Input,
  InputNumber,
  Progress,
  Row,
  Space,
  Tag,
  Tree,
  Typography,
} from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import {
  REGION_KEYS,
  type RegionFilters,
  type RegionNode,
  type RegionRow,
  regionApi,
  regionResource,
} from '../../components/region-cascader/region.api.ts';
import { RegionCascader, type RegionOption } from '../../components/region-cascader/region-cascader.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth } from '../../platform/access/access.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import type { TextKey } from '../../platform/i18n/text-key.ts';

/** Level names 1–5: 省, 市, 区县, 乡镇街道, 村社区. */
const LEVEL_KEYS = [
  null,
  'region.level1',
  'region.level2',
  'region.level3',
  'region.level4',
  'region.level5',
] as const satisfies readonly (TextKey | null)[];
const LEVEL_COLORS = ['', 'magenta', 'blue', 'cyan', 'green', 'gold'];

type TreeItem = { key: string; title: string; isLeaf: boolean; node: RegionNode; children?: TreeItem[] };
type Selected = Pick<RegionNode, 'id' | 'code' | 'name' | 'level'>;

const toItem = (node: RegionNode): TreeItem => ({
  key: String(node.id),
  title: node.name,
  isLeaf: node.isLeaf,
  node,
});

function setChildren(items: TreeItem[], key: string, children: TreeItem[]): TreeItem[] {
  return items.map((item) => {
    if (item.key === key) return { ...item, children, isLeaf: children.length === 0 };
    if (item.children) return { ...item, children: setChildren(item.children, key, children) };
    return item;
  });
}

function hasItem(items: TreeItem[], key: string): boolean {
  return items.some((i) => i.key === key || (i.children ? hasItem(i.children, key) : false));
}

function schemaRule(check: (value: unknown) => boolean, message: string) {
  return {
    validator: (_: unknown, value: unknown) =>
      !value || check(value) ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

/**
 * 行政区划 (issue 4 §3): the five-level tree on the left (lazy, one level per request, opened along the
 * profile's district), the selected region's children on the right, where local regions are added; a
 * locator (the region cascader with server search) and 同步 with its progress.
 */
export default function RegionPage() {
  const { t } = useTranslation();
  const levelName = (level: number) => {
    const key = LEVEL_KEYS[level];
    return key ? t(key) : '';
  };
  const [treeData, setTreeData] = useState<TreeItem[]>([]);
  const [expanded, setExpanded] = useState<string[]>([]);
  const [selected, setSelected] = useState<Selected | null>(null);
  const [located, setLocated] = useState<string[]>([]);

  const loadChildren = useCallback(async (id: number) => {
    const children = (await regionApi.tree(id)).map(toItem);
    setTreeData((current) => setChildren(current, String(id), children));
    return children;
  }, []);

  /** Opens the tree along a path (province first) and selects its last region. */
  const openPath = useCallback(
    async (path: RegionNode[]) => {
      for (const node of path.slice(0, -1)) await loadChildren(node.id);
      setExpanded((current) => [...new Set([...current, ...path.slice(0, -1).map((n) => String(n.id))])]);
      const last = path.at(-1);
      if (last) setSelected(last);
    },
    [loadChildren],
  );

  // Provinces, then the tree opened down to the profile's district (again after a sync).
  const [generation, setGeneration] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation reloads the tree.
  useEffect(() => {
    let alive = true;
    (async () => {
      const provinces = (await regionApi.tree(0)).map(toItem);
      if (!alive) return;
      setTreeData(provinces);
      setExpanded([]);
      const root = await regionApi.root();
      if (!alive) return;
      if (root.path.length > 0) await openPath(root.path);
      else if (provinces[0]) setSelected(provinces[0].node);
    })().catch(() => undefined);
    return () => {
      alive = false;
    };
  }, [openPath, generation]);

  const onLocate = async (codes: string[]) => {
    setLocated(codes);
    const last = codes.at(-1);
    if (!last) return;
    await openPath(await regionApi.path(last));
  };

  // A write under the selected region: its branch of the tree is read again.
  const onSaved = () => {
    if (selected && hasItem(treeData, String(selected.id))) void loadChildren(selected.id);
  };

  const columns: CrudColumn<RegionRow>[] = [
    {
      key: 'name',
      title: t('region.name'),
      sort: true,
      render: (_: unknown, row: RegionRow) => (
        <Space size={6}>
          <span>{row.name}</span>
          {row.isLocal === 1 ? (
            <Tag color="orange" data-testid="region-local-tag">
              {t('region.local')}
            </Tag>
          ) : null}
        </Space>
      ),
      widthText: (row) => `${row.name}${row.isLocal ? ' 本地新增' : ''}`,
    },
    { key: 'code', title: t('region.code'), sort: true },
    {
      key: 'level',
      title: t('region.level'),
      width: 110,
      render: (_: unknown, row: RegionRow) => (
        <Tag color={LEVEL_COLORS[row.level]}>{levelName(row.level)}</Tag>
      ),
    },
    { key: 'shortName', title: t('region.shortName') },
    { key: 'orderNo', title: t('region.orderNo'), sort: true, align: 'right', width: 90 },
    { key: 'remark', title: t('region.remark'), width: 180 },
  ];

  const fields: CrudFormField<RegionRow>[] = [
    {
      name: 'name',
      label: t('region.name'),
      half: true,
      rules: [{ required: true, whitespace: true, message: t('crud.required', { label: t('region.name') }) }],
      input: (
        <Input
          allowClear
          maxLength={128}
          placeholder={t('crud.inputPlaceholder', { label: t('region.name') })}
          data-testid="region-field-name"
        />
      ),
    },
    {
      name: 'code',
      label: t('region.code'),
      half: true,
      tooltip: t('region.codeTip'),
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('region.code') }) },
        schemaRule((v) => regionAddInputSchema.shape.code.safeParse(v).success, t('region.codeRule')),
      ],
      input: ({ mode }) => (
        <Input
          allowClear
          maxLength={32}
          disabled={mode === 'edit'}
          placeholder={selected ? `${selected.code}…` : ''}
          data-testid="region-field-code"
        />
      ),
    },
    {
      name: 'shortName',
      label: t('region.shortName'),
      half: true,
      input: <Input allowClear maxLength={64} data-testid="region-field-short-name" />,
    },
    {
      name: 'orderNo',
      label: t('region.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    {
      name: 'remark',
      label: t('region.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];

  const canAddUnder = selected !== null && selected.level < REGION_MAX_LEVEL;

  return (
    <Row gutter={[16, 16]} data-testid="region-page">
      <Col xs={24} xl={8}>
        <Card
          title={
            <Space size={8}>
              <EnvironmentOutlined />
              <span>{t('region.treeTitle')}</span>
            </Space>
          }
          extra={<SyncButton onDone={() => setGeneration((g) => g + 1)} />}
          style={{ height: '100%' }}
        >
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <RegionCascader
              root="province"
              value={located}
              onChange={(codes: string[], _regions: RegionOption[]) => void onLocate(codes)}
              placeholder={t('region.locate')}
              data-testid="region-locate"
            />
            <div style={{ height: 'calc(100vh - 330px)', overflow: 'auto' }} data-testid="region-tree">
              {treeData.length === 0 ? (
                <Empty description={t('region.empty')} />
              ) : (
                <Tree<TreeItem>
                  treeData={treeData}
                  expandedKeys={expanded}
                  onExpand={(keys) => setExpanded(keys.map(String))}
                  selectedKeys={selected ? [String(selected.id)] : []}
                  onSelect={(_keys, info) => setSelected(info.node.node)}
                  loadData={async (item) => {
                    if (!item.children) await loadChildren(item.node.id);
                  }}
                  titleRender={(item) => (
                    <span data-testid={`region-tree-${item.node.code}`}>
                      {item.title}
                      {item.node.isLocal === 1 ? (
                        <Typography.Text type="warning" style={{ marginInlineStart: 6, fontSize: 12 }}>
                          {t('region.local')}
                        </Typography.Text>
                      ) : null}
                    </span>
                  )}
                  blockNode
                />
              )}
            </div>
          </Space>
        </Card>
      </Col>
      <Col xs={24} xl={16}>
        <Card
          title={
            <Space size={8}>
              <span>{t('region.childrenTitle')}</span>
              {selected ? (
                <Typography.Text type="secondary" data-testid="region-selected">
                  {t('region.childrenOf', {
                    name: selected.name,
                    code: selected.code,
                    level: levelName(selected.level),
                  })}
                </Typography.Text>
              ) : null}
            </Space>
          }
          style={{ height: '100%' }}
        >
          <CrudPage<RegionRow, RegionFilters>
            resource={regionResource}
            entityName={t('region.entity')}
            columns={columns}
            searchFields={[
              { name: 'name', label: t('region.name'), width: 150 },
              { name: 'code', label: t('region.code'), width: 150 },
            ]}
            formFields={fields}
            permissions={{
              ...(canAddUnder ? { add: 'sysRegion:add' } : {}),
              update: 'sysRegion:update',
              delete: 'sysRegion:delete',
            }}
            fixedFilters={selected ? { pid: selected.id } : undefined}
            formDefaults={selected ? { pid: selected.id } : undefined}
            toPayload={(values, context) =>
              context.mode === 'edit'
                ? { ...values, code: undefined, shortName: (values.shortName as string) || null }
                : { ...values, pid: selected?.id, shortName: (values.shortName as string) || null }
            }
            enabled={selected !== null}
            disabledText={t('region.pick')}
            invalidates={[REGION_KEYS.all]}
            onSaved={onSaved}
            onRowClick={(row) => {
              if (row.level < REGION_MAX_LEVEL) {
                void regionApi.path(row.code).then(openPath);
              }
            }}
            defaultSort={{ field: 'code', order: 'ascending' }}
            compact
            testId="region"
          />
        </Card>
      </Col>
    </Row>
  );
}

/** 同步: confirmation, then the progress of the import until it ends, then the counts. */
function SyncButton({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const [running, setRunning] = useState(false);
  const status = useQuery({
    queryKey: REGION_KEYS.status,
    queryFn: () => regionApi.syncStatus(),
    refetchInterval: running ? 1000 : false,
    enabled: running,
  });

  const run = useReclickGuard(async () => {
    setRunning(true);
    try {
      const counts = await regionApi.sync();
      message.success(t('region.synced', { ...counts, seconds: (counts.elapsedMs / 1000).toFixed(1) }));
      await client.invalidateQueries({ queryKey: REGION_KEYS.all });
      onDone();
    } catch (error) {
      if (!(error instanceof UnauthorizedError))
        message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
    } finally {
      setRunning(false);
    }
  });

  const progress = status.data?.running && status.data.total > 0 ? status.data : null;
  return (
    <Auth value="sysRegion:sync">
      <Space size={8}>
        {running && progress ? (
          <Progress
            percent={Math.min(99, Math.floor((progress.done / progress.total) * 100))}
            size="small"
            style={{ width: 120 }}
            data-testid="region-sync-progress"
          />
        ) : null}
        <Button
          icon={<SyncOutlined spin={running} />}
          loading={running}
          onClick={() =>
            modal.confirm({
              title: t('region.syncTitle'),
              content: <span data-testid="region-sync-content">{t('region.syncContent')}</span>,
              okText: t('region.syncOk'),
              okButtonProps: { 'data-testid': 'region-sync-ok' } as never,
              cancelText: t('common.cancel'),
              onOk: () => run(),
            })
          }
          data-testid="region-sync"
        >
          {t('region.sync')}
        </Button>
      </Space>
    </Auth>
  );
}
