import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import { fileDownloadUrl } from '@shuzhi/contracts/file';
import { Button, Space, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diyFormApi } from '../../components/diy-form/diy-form.api.ts';
import { downloadFile } from '../../platform/data/download.ts';
import { feedback } from '../../platform/feedback/feedback.ts';

/**
 * A task's attachments (docs/tasks.md "Attachments"): files uploaded one by one to `POST /api/sysFile/uploadFile`,
 * kept as `{fileId, name}` (at most 20); the task's readers download them from the detail page.
 */

export type TaskAttachment = TaskDetail['attachments'][number];

const MAX_TASK_ATTACHMENTS = 20;

/** The name, downloaded on click. */
function AttachmentLink({ file }: { file: TaskAttachment }) {
  return (
    <Typography.Link
      onClick={() => void downloadFile(fileDownloadUrl(file.fileId), file.name, { method: 'get' })}
      data-testid="task-attachment"
    >
      <PaperClipOutlined /> {file.name}
    </Typography.Link>
  );
}

/** The form field: the list with 删除 and 上传附件 (a controlled value for `Form.Item`). */
export function TaskAttachmentsField({
  value = [],
  onChange,
}: {
  value?: TaskAttachment[];
  onChange?: (next: TaskAttachment[]) => void;
}) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState(0);
  // Uploads finishing one after another each add to the list as it then stands.
  const latest = useRef(value);
  latest.current = value;
  const upload = async (file: File) => {
    setUploading((n) => n + 1);
    try {
      const saved = await diyFormApi.upload(file, file.name);
      const next = [...latest.current, { fileId: saved.id, name: saved.fileName }];
      latest.current = next;
      onChange?.(next);
    } catch (error) {
      feedback.error(t('diyTask.attachmentFailed', { name: file.name, reason: (error as Error).message }));
    } finally {
      setUploading((n) => n - 1);
    }
  };
  const full = value.length >= MAX_TASK_ATTACHMENTS;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="task-attachments-field">
      {value.map((file) => (
        <Space key={file.fileId} size={8}>
          <AttachmentLink file={file} />
          <Button
            type="text"
            size="small"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('diyTask.attachmentRemove', { name: file.name })}
            onClick={() => onChange?.(value.filter((f) => f.fileId !== file.fileId))}
            data-testid="task-attachment-remove"
          />
        </Space>
      ))}
      <Upload
        multiple
        showUploadList={false}
        disabled={full}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <Button
          icon={<UploadOutlined />}
          loading={uploading > 0}
          disabled={full}
          data-testid="task-attachment-add"
        >
          {t('diyTask.attachmentAdd')}
        </Button>
      </Upload>
      {full ? <Typography.Text type="secondary">{t('diyTask.attachmentsFull')}</Typography.Text> : null}
    </Space>
  );
}

/** The detail page's list of the task's attachments (none: a dash). */
export function TaskAttachmentList({ files }: { files: readonly TaskAttachment[] }) {
  if (files.length === 0) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Space wrap size={12} data-testid="task-attachments">
      {files.map((file) => (
        <AttachmentLink key={file.fileId} file={file} />
      ))}
    </Space>
  );
}
