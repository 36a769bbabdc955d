import { PlusOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Popconfirm, Select, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { useFilePreview } from '../../components/file-preview/file-preview.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { WORD_KEYS, type WordOutput, type WordTemplate, wordApi } from './diy-word.api.ts';
import { GenerateModal, HelpDrawer, OutputsDrawer, OutputTable, UploadModal } from './word-dialogs.tsx';

const KIND_COLORS = { form: 'blue', rollup: 'green', query: 'purple' } as const;

/** The templates' columns; the row actions call back into the page (null: not allowed). */
function templateColumns(
  t: TFunction,
  actions: {
    help(w: WordTemplate): void;
    generate: ((w: WordTemplate) => void) | null;
    outputs(w: WordTemplate): void;
    download(w: WordTemplate): void;
    remove: ((w: WordTemplate) => void) | null;
  },
): ColumnsType<WordTemplate> {
  return [
    { key: 'name', title: t('diyWord.colName'), width: 180, render: (_, w) => w.name },
    {
      key: 'source',
      title: t('diyWord.colSource'),
      width: 220,
      render: (_, w) => (
        <Space size={4}>
          <Tag color={KIND_COLORS[w.sourceKind]}>{t(`diyWord.kind.${w.sourceKind}`)}</Tag>
          {w.tableTitle}
        </Space>
      ),
    },
    {
      key: 'placeholders',
      title: t('diyWord.colPlaceholders'),
      width: 120,
      render: (_, w) => (
        <span title={w.placeholders.join(' ')}>
          {t('diyWord.placeholderCount', { count: w.placeholders.length })}
        </span>
      ),
    },
    { key: 'file', title: t('diyWord.colFile'), width: 180, ellipsis: true, render: (_, w) => w.fileName },
    { key: 'creator', title: t('diyWord.colCreator'), width: 100, render: (_, w) => w.createUserName ?? '' },
    { key: 'time', title: t('diyWord.colTime'), width: 150, render: (_, w) => w.createTime.slice(0, 16) },
    {
      key: 'actions',
      title: t('diyWord.colActions'),
      width: 320,
      fixed: 'right',
      render: (_, w) => (
        <Space size={4} wrap>
          <Button type="link" size="small" onClick={() => actions.help(w)} data-testid="word-help">
            {t('diyWord.help')}
          </Button>
          {actions.generate ? (
            <Button
              type="link"
              size="small"
              onClick={() => actions.generate?.(w)}
              data-testid="word-generate"
            >
              {t('diyWord.generate')}
            </Button>
          ) : null}
          <Button type="link" size="small" onClick={() => actions.outputs(w)} data-testid="word-outputs-open">
            {t('diyWord.outputs')}
          </Button>
          <Button type="link" size="small" onClick={() => actions.download(w)}>
            {t('diyWord.downloadTemplate')}
          </Button>
          {actions.remove ? (
            <Popconfirm title={t('diyWord.deleteAsk')} onConfirm={() => actions.remove?.(w)}>
              <Button type="link" size="small" danger data-testid="word-delete">
                {t('diyWord.delete')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];
}

/**
 * 文书报告 at /diyword/index (issue 21 §3, docs/word-documents.md; a type-7 item opens here with `?id=`, which
 * narrows the list to that source): .docx templates with their placeholders, upload, placeholder help,
 * generation (a record, each unit of a period, a bulletin), the generated files with preview and download.
 */
export default function DiyWordPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const client = useQueryClient();
  const [params] = useSearchParams();
  const fromUrl = Number(params.get('id')) || undefined;
  const [tableId, setTableId] = useState<number | undefined>(fromUrl);
  const [uploading, setUploading] = useState(false);
  const [help, setHelp] = useState<WordTemplate | null>(null);
  const [generating, setGenerating] = useState<WordTemplate | null>(null);
  const [outputsOf, setOutputsOf] = useState<WordTemplate | null>(null);
  const [lastOutput, setLastOutput] = useState<WordOutput | null>(null);
  const { preview, element: previewDialog } = useFilePreview();
  const list = useQuery({ queryKey: WORD_KEYS.list(tableId), queryFn: () => wordApi.list(tableId) });
  const sources = useQuery({ queryKey: WORD_KEYS.sources, queryFn: wordApi.sources });
  const refresh = () => client.invalidateQueries({ queryKey: WORD_KEYS.all });
  const remove = useMutation({
    mutationFn: (id: number) => wordApi.remove([id]),
    onSuccess: () => {
      feedback.success(t('diyWord.deleted'));
      void refresh();
    },
    onError: (error) => feedback.error(error.message),
  });
  const downloadTemplate = (w: WordTemplate) =>
    wordApi.downloadTemplate(w).catch((e: Error) => feedback.error(e.message || t('diyWord.loadFailed')));

  const columns = templateColumns(t, {
    help: setHelp,
    generate: can('diyWord:generate') ? setGenerating : null,
    outputs: setOutputsOf,
    download: (w) => void downloadTemplate(w),
    remove: can('diyWord:delete') ? (w) => remove.mutate(w.id) : null,
  });

  return (
    <Card
      title={t('diyWord.title')}
      extra={
        can('diyWord:add') ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setUploading(true)}
            data-testid="word-upload"
          >
            {t('diyWord.upload')}
          </Button>
        ) : null
      }
    >
      <Select
        allowClear
        showSearch
        optionFilterProp="label"
        placeholder={t('diyWord.allSources')}
        value={tableId}
        onChange={(value) => setTableId(value)}
        style={{ width: 320, marginBottom: 12 }}
        data-testid="word-source-filter"
        options={(sources.data ?? []).map((s) => ({
          value: s.id,
          label: `${s.title}（${t(`diyWord.kind.${s.sourceKind}`)}）`,
        }))}
      />
      {list.isError ? <LoadFailedAlert error={list.error} onRetry={() => void list.refetch()} /> : null}
      {lastOutput ? (
        <div style={{ marginBottom: 12 }} data-testid="word-last-output">
          <OutputTable outputs={[lastOutput]} preview={preview} />
        </div>
      ) : null}
      <Table<WordTemplate>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        scroll={{ x: 1200 }}
        pagination={false}
        locale={{ emptyText: t('diyWord.empty') }}
        data-testid="word-table"
      />
      <UploadModal
        open={uploading}
        tableId={tableId}
        onClose={() => setUploading(false)}
        onUploaded={() => {
          setUploading(false);
          void refresh();
        }}
      />
      <HelpDrawer template={help} onClose={() => setHelp(null)} />
      <GenerateModal
        template={generating}
        onClose={() => setGenerating(null)}
        onGenerated={(output) => {
          setGenerating(null);
          setLastOutput(output);
          feedback.success(t('diyWord.generated', { name: output.fileName }));
          void refresh();
        }}
      />
      <OutputsDrawer template={outputsOf} onClose={() => setOutputsOf(null)} preview={preview} />
      {previewDialog}
    </Card>
  );
}
