import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { USER_IMPORT_MAX_ROWS } from '@shuzhi/contracts/user';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Spin, Steps, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resourceKeys } from '../../platform/data/resource.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { type UserImportResult, userApi } from './user.api.ts';

/** Only .xlsx workbooks go up (the server reads nothing else, D1010). */
export function isXlsxFile(file: { name: string }): boolean {
  return /\.xlsx$/i.test(file.name);
}

/** Summary line and status of an import result. */
export function importOutcome(result: UserImportResult): 'success' | 'warning' | 'error' {
  if (result.failed === 0) return 'success';
  return result.imported > 0 ? 'warning' : 'error';
}

/** Import dialog: template download, upload, then the result with the rows refused and the error report. */
export function UserImportModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [result, setResult] = useState<UserImportResult | null>(null);
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    if (uploading) return;
    setResult(null);
    setError(null);
    onClose();
  };

  const upload = async (file: File) => {
    setUploading(true);
    setError(null);
    try {
      const answer = await userApi.importFile(file, file.name);
      setResult(answer);
      if (answer.imported > 0) await queryClient.invalidateQueries({ queryKey: resourceKeys.all('sysUser') });
    } catch (e) {
      if (!(e instanceof UnauthorizedError)) setError(e instanceof Error ? e.message : t('crud.failed'));
    } finally {
      setUploading(false);
    }
  };

  const outcome = result ? importOutcome(result) : null;
  return (
    <Modal
      open={open}
      title={t('sysUser.importTitle')}
      onCancel={close}
      width={760}
      destroyOnHidden
      mask={{ closable: !uploading }}
      footer={
        <Space>
          {result ? (
            <Button onClick={() => setResult(null)} data-testid="user-import-again">
              {t('sysUser.importAgain')}
            </Button>
          ) : null}
          <Button type="primary" onClick={close} disabled={uploading}>
            {t('common.ok')}
          </Button>
        </Space>
      }
      data-testid="user-import-modal"
    >
      {result ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="user-import-result">
          <Alert
            type={outcome ?? 'info'}
            showIcon
            title={
              result.failed === 0
                ? t('sysUser.importAllOk')
                : t('sysUser.importSummary', {
                    total: result.total,
                    imported: result.imported,
                    failed: result.failed,
                  })
            }
            description={result.failed === 0 ? t('sysUser.importSummary', result) : undefined}
            action={
              result.errorReportId ? (
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  onClick={() =>
                    void userApi
                      .downloadErrorReport(result.errorReportId as string, `${t('sysUser.reportName')}.xlsx`)
                      .catch(() => undefined)
                  }
                  data-testid="user-import-report"
                >
                  {t('sysUser.downloadReport')}
                </Button>
              ) : undefined
            }
          />
          {result.errors.length > 0 ? (
            <Table
              size="small"
              rowKey="row"
              pagination={result.errors.length > 8 ? { pageSize: 8, size: 'small' } : false}
              dataSource={result.errors}
              columns={[
                { key: 'row', dataIndex: 'row', title: t('sysUser.importRow'), width: 80 },
                {
                  key: 'messages',
                  dataIndex: 'messages',
                  title: t('sysUser.importMessages'),
                  render: (messages: string[]) => (
                    <Typography.Text type="danger">
                      {messages.join(t('common.listSeparator'))}
                    </Typography.Text>
                  ),
                },
              ]}
              data-testid="user-import-errors"
            />
          ) : null}
        </Space>
      ) : (
        <Spin spinning={uploading} tip={t('sysUser.importing')}>
          <Steps
            orientation="vertical"
            current={-1}
            items={[
              {
                title: t('sysUser.importStep1'),
                description: (
                  <Button
                    icon={<DownloadOutlined />}
                    style={{ margin: '8px 0 16px' }}
                    onClick={() =>
                      void userApi
                        .downloadTemplate(`${t('sysUser.templateName')}.xlsx`)
                        .catch(() => undefined)
                    }
                    data-testid="user-import-template"
                  >
                    {t('sysUser.downloadTemplate')}
                  </Button>
                ),
              },
              {
                title: t('sysUser.importStep2', { max: USER_IMPORT_MAX_ROWS }),
                description: (
                  <div style={{ marginTop: 8 }}>
                    <Upload.Dragger
                      accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                      maxCount={1}
                      showUploadList={false}
                      disabled={uploading}
                      beforeUpload={(file) => {
                        if (!isXlsxFile(file)) message.error(t('sysUser.xlsxOnly'));
                        else void upload(file);
                        return false;
                      }}
                      data-testid="user-import-upload"
                    >
                      <p className="ant-upload-drag-icon">
                        <InboxOutlined />
                      </p>
                      <p className="ant-upload-text">{t('sysUser.importDrop')}</p>
                    </Upload.Dragger>
                  </div>
                ),
              },
            ]}
          />
          {error ? (
            <Alert
              type="error"
              showIcon
              title={error}
              style={{ marginTop: 12 }}
              data-testid="user-import-error"
            />
          ) : null}
        </Spin>
      )}
    </Modal>
  );
}
