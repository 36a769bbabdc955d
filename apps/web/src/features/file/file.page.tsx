import { CloudUploadOutlined, DownloadOutlined, EyeOutlined } from '@ant-design/icons';
import { formatFileSize, hasPathParts } from '@shuzhi/contracts/file';
import { App, Button, Card, DatePicker, Input, InputNumber, Select, Switch, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { useFilePreview } from '../../components/file-preview/file-preview.tsx';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { type FileFilters, type FileRow, fileApi, fileResource } from './file.api.ts';
import { FileTypeIcon } from './file-icon.tsx';
import { FileUploadModal, useUploadLimits } from './file-upload-modal.tsx';

/** 文件管理 (issue 4 §5): the tenant's files within the data scope; upload, preview, download, rename, delete. */
export default function FilePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can } = useCan();
  const { preview, element: previewDialog } = useFilePreview();
  const limits = useUploadLimits();
  const [uploading, setUploading] = useState(false);
  const canDownload = can('sysFile:download');

  const download = async (row: FileRow) => {
    try {
      await fileApi.download(row);
    } catch (error) {
      message.error(error instanceof Error && error.message ? error.message : t('sysFile.downloadFailed'));
    }
  };

  const columns: CrudColumn<FileRow>[] = [
    {
      key: 'fileName',
      title: t('sysFile.fileName'),
      sort: true,
      width: 300,
      ellipsis: true,
      render: (_: unknown, row: FileRow) => (
        <Button
          type="link"
          size="small"
          style={{ padding: 0, maxWidth: '100%' }}
          onClick={() => preview({ url: fileApi.previewUrl(row.id), fileName: row.fileName })}
          title={row.fileName}
          data-testid="file-name-link"
        >
          <FileTypeIcon suffix={row.suffix} />
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{row.fileName}</span>
        </Button>
      ),
    },
    {
      key: 'suffix',
      title: t('sysFile.suffix'),
      sort: true,
      width: 90,
      render: (value: string | null) => (value ? <Tag>{value.replace(/^\./, '')}</Tag> : null),
    },
    {
      key: 'size',
      title: t('sysFile.size'),
      sort: true,
      align: 'right',
      width: 100,
      render: (value: number) => formatFileSize(value),
      widthText: (row) => formatFileSize(row.size),
    },
    { key: 'fileType', title: t('sysFile.fileType'), sort: true, width: 110 },
    {
      key: 'isPublic',
      title: t('sysFile.isPublic'),
      width: 80,
      render: (value: number) =>
        value === 1 ? <Tag color="green">{t('sysFile.public')}</Tag> : <Tag>{t('sysFile.private')}</Tag>,
    },
    { key: 'createUserName', title: t('sysFile.uploader'), sort: true, width: 110 },
    {
      key: 'createTime',
      title: t('sysFile.createTime'),
      sort: true,
      widthText: () => '2026-01-01 00:00:00',
    },
    { key: 'remark', title: t('sysFile.remark'), width: 160, ellipsis: true },
  ];

  const formFields: CrudFormField<FileRow>[] = [
    {
      name: 'fileName',
      label: t('sysFile.fileName'),
      tooltip: t('sysFile.renameHint'),
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysFile.fileName') }) },
        {
          validator: (_: unknown, value: unknown) =>
            typeof value === 'string' && hasPathParts(value.trim())
              ? Promise.reject(new Error(t('sysFile.nameNoPath')))
              : Promise.resolve(),
        },
      ],
      input: <Input allowClear maxLength={200} data-testid="file-field-name" />,
    },
    {
      name: 'isPublic',
      label: t('sysFile.isPublic'),
      tooltip: t('sysFile.isPublicHint'),
      valuePropName: 'checked',
      input: <Switch data-testid="file-field-public" />,
    },
    {
      name: 'remark',
      label: t('sysFile.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];

  return (
    <Card title={t('sysFile.title')} data-testid="file-page">
      <CrudPage<FileRow, FileFilters>
        resource={fileResource}
        entityName={t('sysFile.entity')}
        columns={columns}
        searchFields={[
          { name: 'fileName', label: t('sysFile.fileName') },
          {
            name: 'suffix',
            label: t('sysFile.suffix'),
            input: (
              <Select
                allowClear
                showSearch
                placeholder={t('crud.selectPlaceholder', { label: t('sysFile.suffix') })}
                options={limits.allowed.map((s) => ({ value: s, label: s }))}
                style={{ width: 130 }}
                data-testid="file-search-suffix"
              />
            ),
          },
          { name: 'fileType', label: t('sysFile.fileType'), width: 140 },
          {
            name: 'createTime',
            label: t('sysFile.createTime'),
            input: (
              <DatePicker.RangePicker allowClear style={{ width: 248 }} data-testid="file-search-time" />
            ),
          },
          {
            name: 'belongId',
            label: t('sysFile.belongId'),
            input: (
              <InputNumber
                min={1}
                precision={0}
                controls={false}
                style={{ width: 160 }}
                placeholder={t('crud.inputPlaceholder', { label: t('sysFile.belongId') })}
              />
            ),
          },
        ]}
        formFields={formFields}
        permissions={{ update: 'sysFile:update', delete: 'sysFile:delete', batchDelete: 'sysFile:delete' }}
        toFormValues={(row) => ({ fileName: row.fileName, isPublic: row.isPublic === 1, remark: row.remark })}
        toPayload={(values) => ({
          fileName: String(values.fileName ?? '').trim(),
          isPublic: values.isPublic ? 1 : 0,
          remark: (values.remark as string | undefined) || null,
        })}
        toolbarExtra={
          <Auth value="sysFile:upload">
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              onClick={() => setUploading(true)}
              data-testid="file-upload-open"
            >
              {t('sysFile.upload')}
            </Button>
          </Auth>
        }
        rowActions={(row) => (
          <>
            <Button
              type="link"
              size="small"
              icon={<EyeOutlined />}
              onClick={() => preview({ url: fileApi.previewUrl(row.id), fileName: row.fileName })}
              data-testid="file-preview-open"
            >
              {t('sysFile.preview')}
            </Button>
            {canDownload ? (
              <Button
                type="link"
                size="small"
                icon={<DownloadOutlined />}
                onClick={() => download(row)}
                data-testid="file-download"
              >
                {t('sysFile.download')}
              </Button>
            ) : null}
          </>
        )}
        extraActionWidth={canDownload ? 150 : 70}
        testId="file"
      />
      <FileUploadModal open={uploading} onClose={() => setUploading(false)} />
      {previewDialog}
    </Card>
  );
}
