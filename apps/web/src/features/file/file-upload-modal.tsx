import { InboxOutlined } from '@ant-design/icons';
import { formatFileSize, maxUploadBytes, parseAllowedTypes, suffixOf } from '@shuzhi/contracts/file';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Switch, Typography, Upload, type UploadFile } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { resourceKeys } from '../../platform/data/resource.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { fileApi } from './file.api.ts';

/** The upload limits of the client config (`sys_file_max_size_mb`, `sys_file_allowed_types`). */
export function useUploadLimits() {
  const config = useQuery({
    queryKey: ['sysConfig', 'clientList'],
    queryFn: sessionApi.clientConfig,
    staleTime: 5 * 60_000,
  });
  const value = (code: string) => config.data?.find((item) => item.code === code)?.value ?? null;
  const types = value('sys_file_allowed_types');
  const size = value('sys_file_max_size_mb');
  return {
    /** Empty until the config arrived: the server checks anyway. */
    allowed: types ? parseAllowedTypes(types) : [],
    maxBytes: size ? maxUploadBytes(size) : null,
  };
}

/** Why a file is refused before it is sent, or null (the server checks the same and the content too). */
export function precheck(
  file: { name: string; size: number },
  limits: { allowed: string[]; maxBytes: number | null },
): {
  key: 'typeNotAllowed' | 'tooLarge' | 'empty';
  values: { name: string; types?: string; max?: string };
} | null {
  const suffix = suffixOf(file.name);
  if (limits.allowed.length > 0 && !limits.allowed.includes(suffix)) {
    return { key: 'typeNotAllowed', values: { name: file.name, types: limits.allowed.join(', ') } };
  }
  if (file.size === 0) return { key: 'empty', values: { name: file.name } };
  if (limits.maxBytes !== null && file.size > limits.maxBytes) {
    return { key: 'tooLarge', values: { name: file.name, max: formatFileSize(limits.maxBytes) } };
  }
  return null;
}

type Fields = { fileType?: string; isPublic?: boolean; remark?: string };

/**
 * 上传文件: drag files in or pick them; each goes to `uploadFile` with a progress bar. Type and size are
 * checked here first against the client config; a refusal from the server shows its message.
 */
export function FileUploadModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const limits = useUploadLimits();
  const [form] = Form.useForm<Fields>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const busy = files.some((f) => f.status === 'uploading');

  const close = () => {
    if (busy) return;
    setFiles([]);
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('sysFile.uploadTitle')}
      width={640}
      onCancel={close}
      mask={{ closable: false }}
      destroyOnHidden
      styles={{ body: { maxHeight: 'calc(100vh - 220px)', overflowY: 'auto' } }}
      footer={
        <Button type="primary" onClick={close} disabled={busy} data-testid="file-upload-done">
          {t('sysFile.uploadDone')}
        </Button>
      }
      data-testid="file-upload-modal"
    >
      <Form form={form} layout="vertical" initialValues={{ isPublic: false }}>
        <div style={{ display: 'flex', gap: 24 }}>
          <Form.Item
            name="fileType"
            label={t('sysFile.fileType')}
            tooltip={t('sysFile.fileTypeHint')}
            rules={[{ pattern: /^[A-Za-z0-9_-]*$/, message: t('sysFile.fileTypeRule') }]}
            style={{ marginBottom: 12, flex: 1 }}
          >
            <Input allowClear maxLength={32} placeholder="attachment" data-testid="file-upload-type" />
          </Form.Item>
          <Form.Item
            name="isPublic"
            label={t('sysFile.isPublic')}
            tooltip={t('sysFile.isPublicHint')}
            valuePropName="checked"
            style={{ marginBottom: 12 }}
          >
            <Switch data-testid="file-upload-public" />
          </Form.Item>
        </div>
        <Form.Item name="remark" label={t('sysFile.remark')} style={{ marginBottom: 16 }}>
          <Input.TextArea rows={2} maxLength={256} showCount />
        </Form.Item>
      </Form>
      <Upload.Dragger
        multiple
        fileList={files}
        onChange={({ fileList }) => setFiles(fileList)}
        accept={limits.allowed.map((s) => `.${s}`).join(',') || undefined}
        beforeUpload={(file) => {
          const refused = precheck(file, limits);
          if (!refused) return true;
          message.error(t(`sysFile.${refused.key}`, refused.values));
          return Upload.LIST_IGNORE;
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          const blob = file as File;
          const values = form.getFieldsValue();
          fileApi
            .upload(
              blob,
              blob.name,
              {
                fileType: values.fileType?.trim() || undefined,
                isPublic: values.isPublic,
                remark: values.remark,
              },
              (percent) => onProgress?.({ percent }),
            )
            .then(
              (result) => {
                onSuccess?.(result);
                void queryClient.invalidateQueries({ queryKey: resourceKeys.all('sysFile') });
              },
              (error: unknown) => {
                const text =
                  error instanceof Error && error.message ? error.message : t('sysFile.uploadFailed');
                message.error(t('sysFile.uploadRefused', { name: blob.name, message: text }));
                onError?.(error instanceof Error ? error : new Error(text), text);
              },
            );
        }}
        data-testid="file-upload-dragger"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('sysFile.dragHint')}</p>
        <Typography.Paragraph type="secondary" className="ant-upload-hint" style={{ marginBottom: 0 }}>
          {limits.allowed.length > 0 && limits.maxBytes !== null
            ? t('sysFile.limitHint', {
                types: limits.allowed.join(', '),
                max: formatFileSize(limits.maxBytes),
              })
            : null}
        </Typography.Paragraph>
      </Upload.Dragger>
    </Modal>
  );
}
