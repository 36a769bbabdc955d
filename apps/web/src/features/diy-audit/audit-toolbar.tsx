import { CheckOutlined } from '@ant-design/icons';
import { Button, type ButtonProps, DatePicker, Form, type FormInstance, Input, Popconfirm } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { SearchForm, SelectionToolbar } from '../../components/crud-page/search-form.tsx';
import type { AuditRow } from './diy-audit.api.ts';

export type SearchValues = { keyword?: string; submitTime?: [Dayjs | null, Dayjs | null] | null };

/** 关键字 and 提交时间, with 查询 and 重置. */
export function AuditSearch({
  form,
  onSearch,
  onReset,
}: {
  form: FormInstance<SearchValues>;
  onSearch: (values: SearchValues) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  return (
    <SearchForm form={form} onSearch={onSearch} onReset={onReset} testId="audit-search" actionsTestId="audit">
      <Form.Item name="keyword" label={t('diyAudit.keyword')} style={{ marginInlineEnd: 16 }}>
        <Input
          allowClear
          placeholder={t('diyAudit.keywordPlaceholder')}
          style={{ width: 200 }}
          data-testid="audit-search-keyword"
        />
      </Form.Item>
      <Form.Item name="submitTime" label={t('diyAudit.submitTime')} style={{ marginInlineEnd: 16 }}>
        <DatePicker.RangePicker
          allowEmpty={[true, true]}
          style={{ width: 248 }}
          data-testid="audit-search-time"
        />
      </Form.Item>
    </SearchForm>
  );
}

/** The selected pending records, 批量通过 and 刷新. */
export function AuditToolbar({
  pendingSelected,
  approving,
  viewing,
  onApprove,
  onRefresh,
}: {
  pendingSelected: AuditRow[];
  approving: boolean;
  /** A record is open (its drawer shows the approval's progress). */
  viewing: boolean;
  onApprove: () => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <SelectionToolbar testId="audit" selected={pendingSelected.length} onRefresh={onRefresh}>
      <Popconfirm
        title={t('diyAudit.batchApproveTitle')}
        description={t('diyAudit.batchApproveConfirm', { count: pendingSelected.length })}
        okText={t('diyAudit.approve')}
        cancelText={t('common.cancel')}
        okButtonProps={{ 'data-testid': 'audit-batch-approve-ok' } as ButtonProps}
        onConfirm={onApprove}
        disabled={pendingSelected.length === 0}
      >
        <Button
          type="primary"
          icon={<CheckOutlined />}
          disabled={pendingSelected.length === 0 || approving}
          loading={approving && !viewing}
          data-testid="audit-batch-approve"
        >
          {t('diyAudit.batchApprove')}
        </Button>
      </Popconfirm>
    </SelectionToolbar>
  );
}
