import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Badge, Button, Menu, Skeleton, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AuditForm } from './diy-audit.api.ts';

/** The forms the caller reviews (全部 first), each with its count of pending records. */
export function AuditFormsMenu({
  forms,
  tableId,
  onSelect,
}: {
  forms: UseQueryResult<AuditForm[]>;
  tableId: number | null;
  onSelect: (tableId: number | null) => void;
}) {
  const { t } = useTranslation();
  const formList = forms.data ?? [];
  const pendingAll = formList.reduce((sum, form) => sum + form.pending, 0);
  if (forms.isLoading) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (forms.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('diyAudit.formsFailed')}
        action={
          <Button size="small" onClick={() => void forms.refetch()}>
            {t('diyAudit.retry')}
          </Button>
        }
      />
    );
  return (
    <>
      <Menu
        mode="inline"
        selectedKeys={[tableId ? String(tableId) : 'all']}
        onClick={({ key }) => {
          onSelect(key === 'all' ? null : Number(key));
        }}
        style={{ borderInlineEnd: 'none' }}
        data-testid="audit-forms"
        items={[
          { key: 'all', title: t('diyAudit.allForms'), label: t('diyAudit.allForms'), pending: pendingAll },
          ...formList.map((form) => ({
            key: String(form.value),
            title: form.label,
            label: form.label,
            pending: form.pending,
          })),
        ].map((item) => ({
          key: item.key,
          title: item.title,
          label: (
            <div
              style={{ display: 'flex', alignItems: 'center', gap: 8 }}
              data-testid={`audit-form-${item.key}`}
            >
              <span style={{ flex: '1 1 auto', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {item.label}
              </span>
              {item.pending > 0 ? (
                <Tooltip title={t('diyAudit.pendingCount', { count: item.pending })}>
                  <Badge count={item.pending} overflowCount={999} color="#faad14" />
                </Tooltip>
              ) : null}
            </div>
          ),
        }))}
      />
      {formList.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ padding: '8px 12px', margin: 0 }}>
          {t('diyAudit.noForms')}
        </Typography.Paragraph>
      ) : null}
    </>
  );
}
