import {
  CheckCircleFilled,
  CloseCircleFilled,
  DeleteOutlined,
  DownloadOutlined,
  FileExcelOutlined,
  InboxOutlined,
} from '@ant-design/icons';
import {
  IMPORT_ERROR_SAMPLE,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportError,
} from '@shuzhi/contracts/diy-import';
import { formatFileSize } from '@shuzhi/contracts/file';
import { Alert, Button, Descriptions, Progress, Radio, Statistic, Table, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ImportJob, UploadProgress } from './diy-import.api.ts';

/** A download (the template, the rows in error) with its progress. */
function DownloadButton({
  text,
  loading,
  onClick,
  testId,
}: {
  text: string;
  loading: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <Button icon={<DownloadOutlined />} loading={loading} onClick={onClick} data-testid={testId}>
      {text}
    </Button>
  );
}

/** One of the check's counts, in rows. */
function RowCount({
  title,
  count,
  color,
  testId,
}: {
  title: string;
  count: number;
  color?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <Statistic
      title={title}
      value={count}
      suffix={t('diyImport.rowsUnit')}
      styles={{ content: color ? { color } : {} }}
      data-testid={testId}
    />
  );
}

/** Step 1: the template, the period rows go to, and the workbook to upload (with its progress). */
export function UploadStep({
  file,
  fileError,
  uploading,
  period,
  downloading,
  onTemplate,
  onChoose,
  onRemove,
}: {
  file: File | null;
  fileError: string | null;
  uploading: UploadProgress | null;
  period: { name: string } | null;
  downloading: boolean;
  onTemplate: () => void;
  onChoose: (file: File) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const total = uploading?.total ?? null;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <DownloadButton
          text={t('diyImport.template')}
          loading={downloading}
          onClick={onTemplate}
          testId="diy-import-template"
        />
        <Typography.Text type="secondary" style={{ flex: '1 1 300px' }}>
          {t('diyImport.templateHint')}
        </Typography.Text>
      </div>
      {period ? (
        <Descriptions size="small" column={1} bordered data-testid="diy-import-period">
          <Descriptions.Item label={t('diyImport.period')}>{period.name}</Descriptions.Item>
        </Descriptions>
      ) : null}
      <div data-testid="diy-import-drop">
        <Upload.Dragger
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={false}
          showUploadList={false}
          disabled={uploading !== null}
          beforeUpload={(chosen) => {
            onChoose(chosen);
            return Upload.LIST_IGNORE;
          }}
          data-testid="diy-import-dragger"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('diyImport.drop')}</p>
          <p className="ant-upload-hint" data-testid="diy-import-limits">
            {t('diyImport.dropHint', {
              size: formatFileSize(IMPORT_MAX_BYTES),
              rows: IMPORT_MAX_ROWS.toLocaleString(),
            })}
          </p>
        </Upload.Dragger>
      </div>
      {fileError ? (
        <Alert type="error" showIcon title={fileError} data-testid="diy-import-file-error" />
      ) : null}
      {file ? (
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }} data-testid="diy-import-file">
          <FileExcelOutlined style={{ color: '#217346', fontSize: 18 }} />
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
            {t('diyImport.chosen', { name: file.name, size: formatFileSize(file.size) })}
          </Typography.Text>
          {uploading ? null : (
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              onClick={onRemove}
              aria-label={t('diyImport.remove')}
              data-testid="diy-import-remove"
            />
          )}
        </div>
      ) : null}
      {uploading ? (
        <div data-testid="diy-import-uploading">
          <Progress percent={total ? Math.floor((uploading.loaded / total) * 100) : 0} size="small" />
          <Typography.Text type="secondary">
            {total
              ? t('diyImport.uploading', {
                  loaded: formatFileSize(uploading.loaded),
                  total: formatFileSize(total),
                })
              : t('diyImport.uploadingUnknown', { loaded: formatFileSize(uploading.loaded) })}
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}

/** Step 2: the server checking the workbook, row by row. */
export function CheckStep({ job }: { job: ImportJob | undefined }) {
  const { t } = useTranslation();
  const processed = job?.processed ?? 0;
  const total = job?.total ?? null;
  const percent = total ? Math.min(100, Math.floor((processed / total) * 100)) : 0;
  return (
    <div style={{ padding: '16px 0' }} data-testid="diy-import-checking">
      <Typography.Paragraph strong>{t('diyImport.checking')}</Typography.Paragraph>
      <Progress percent={percent} status="active" aria-label={t('diyImport.checking')} />
      <Typography.Paragraph type="secondary" data-testid="diy-import-processed">
        {total !== null
          ? t('diyImport.checkingRows', {
              processed: processed.toLocaleString(),
              total: total.toLocaleString(),
            })
          : t('diyImport.checkingRead', { processed: processed.toLocaleString() })}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('diyImport.checkingHint')}</Typography.Text>
    </div>
  );
}

/** Step 3: the check's outcome (counts, columns, first errors) and how the valid rows are filed. */
export function ResultStep({
  job,
  submit,
  onSubmitChange,
  importing,
  downloading,
  onErrors,
}: {
  job: ImportJob;
  submit: boolean;
  onSubmitChange: (submit: boolean) => void;
  importing: boolean;
  downloading: boolean;
  onErrors: () => void;
}) {
  const { t } = useTranslation();
  const rows = job.errors.slice(0, IMPORT_ERROR_SAMPLE).map((e, index) => ({ ...e, key: index }));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', gap: 32, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <RowCount title={t('diyImport.valid')} count={job.valid} color="#389e0d" testId="diy-import-valid" />
        <RowCount
          title={t('diyImport.invalid')}
          count={job.invalid}
          color={job.invalid > 0 ? '#cf1322' : undefined}
          testId="diy-import-invalid"
        />
        <RowCount title={t('diyImport.duplicates')} count={job.duplicates} testId="diy-import-duplicates" />
        {job.periodName ? (
          <Statistic
            title={t('diyImport.period')}
            value={job.periodName}
            data-testid="diy-import-job-period"
          />
        ) : null}
        <div style={{ flex: 1 }} />
        {job.invalid > 0 ? (
          <DownloadButton
            text={t('diyImport.downloadErrors')}
            loading={downloading}
            onClick={onErrors}
            testId="diy-import-errors"
          />
        ) : null}
      </div>
      {job.extraColumns.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          title={t('diyImport.extraColumns', { columns: job.extraColumns.join(t('common.listSeparator')) })}
          data-testid="diy-import-extra"
        />
      ) : null}
      {job.missingColumns.length > 0 ? (
        <Alert
          type="error"
          showIcon
          title={t('diyImport.missingColumns', {
            columns: job.missingColumns.join(t('common.listSeparator')),
          })}
          data-testid="diy-import-missing"
        />
      ) : null}
      {rows.length > 0 ? (
        <div>
          <Typography.Text strong>
            <CloseCircleFilled style={{ color: '#cf1322', marginRight: 6 }} />
            {t('diyImport.errorsTitle', { count: rows.length })}
          </Typography.Text>
          <Table<ImportError & { key: number }>
            size="small"
            style={{ marginTop: 8 }}
            rowKey="key"
            dataSource={rows}
            pagination={false}
            scroll={{ y: 180 }}
            columns={[
              { key: 'row', dataIndex: 'row', title: t('diyImport.errorRow'), width: 72 },
              {
                key: 'column',
                dataIndex: 'column',
                title: t('diyImport.errorColumn'),
                width: 180,
                ellipsis: true,
                render: (column: string | null) => column ?? t('diyImport.wholeRow'),
              },
              { key: 'message', dataIndex: 'message', title: t('diyImport.errorReason') },
            ]}
            data-testid="diy-import-error-table"
          />
        </div>
      ) : (
        <Alert
          type="success"
          showIcon
          icon={<CheckCircleFilled />}
          title={t('diyImport.noErrors')}
          data-testid="diy-import-no-errors"
        />
      )}
      {importing ? (
        <div data-testid="diy-import-importing">
          <Progress percent={100} status="active" showInfo={false} />
          <Typography.Text>{t('diyImport.importing', { count: job.valid })}</Typography.Text>{' '}
          <Typography.Text type="secondary">{t('diyImport.importingHint')}</Typography.Text>
        </div>
      ) : (
        <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
          <Typography.Text id="diy-import-after">{t('diyImport.afterImport')}</Typography.Text>
          <Radio.Group
            value={submit ? 'submit' : 'draft'}
            onChange={(e) => onSubmitChange(e.target.value === 'submit')}
            aria-labelledby="diy-import-after"
            disabled={job.valid === 0}
            options={[
              { value: 'submit', label: t('diyImport.submit') },
              { value: 'draft', label: t('diyImport.draft') },
            ]}
            data-testid="diy-import-mode"
          />
        </div>
      )}
    </div>
  );
}
