import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { PublicPageTable } from './public-page-table.tsx';
import { PUBLIC_PAGE_KEYS, type Statement, statementApi } from './public-pages.api.ts';
import { StatementDialog } from './statement-dialog.tsx';

/**
 * 公示发布 (issue 22 §2, docs/no-login.md): staff publish a form's filed records or one record with the fields
 * they choose; the statement opens at `/statement?loadCodedate=…` without login until withdrawn or expired.
 */
export default function StatementsPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const client = useQueryClient();
  const [dialog, setDialog] = useState<{ editing: Statement | null } | null>(null);
  return (
    <PublicPageTable<Statement>
      title={t('publicPages.statementTitle')}
      queryKey={PUBLIC_PAGE_KEYS.statements}
      load={statementApi.page}
      columns={[
        {
          key: 'form',
          title: t('publicPages.colForm'),
          width: 160,
          render: (_, s) => s.tableTitle ?? s.tableId,
        },
        {
          key: 'kind',
          title: t('publicPages.colKind'),
          width: 110,
          render: (_, s) =>
            s.kind === 'record'
              ? `${t('publicPages.kind.record')} #${s.recordId}`
              : t('publicPages.kind.dataset'),
        },
        { key: 'fields', title: t('publicPages.colFields'), width: 90, render: (_, s) => s.fields.length },
      ]}
      can={{
        add: can('sysStatement:add'),
        edit: can('sysStatement:edit'),
        withdraw: can('sysStatement:withdraw'),
        delete: can('sysStatement:delete'),
      }}
      withdraw={statementApi.withdraw}
      remove={statementApi.remove}
      onCreate={() => setDialog({ editing: null })}
      onEdit={(s) => setDialog({ editing: s })}
      testId="statements"
    >
      <StatementDialog
        open={dialog !== null}
        editing={dialog?.editing ?? null}
        onClose={() => setDialog(null)}
        onSaved={() => {
          setDialog(null);
          void client.invalidateQueries({ queryKey: PUBLIC_PAGE_KEYS.statements });
        }}
      />
    </PublicPageTable>
  );
}
