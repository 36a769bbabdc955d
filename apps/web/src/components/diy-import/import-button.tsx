import { ImportOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DIY_RECORD_KEYS, diyRecordApi } from '../diy-record/diy-record.api.ts';
import { type ImportPeriod, ImportWizard } from './import-wizard.tsx';

/**
 * 导入 on a form's record list: shown when the caller may import (`myAuth.import`, read from the design the
 * list loaded already). Periodic forms import into `period` (the list's selected period), else the
 * current one. `disabledReason` (a period that takes no filings) disables it with the reason as its tooltip.
 */
export function ImportButton({
  tableId,
  period,
  disabledReason,
  onImported,
}: {
  tableId: number;
  period?: ImportPeriod | null;
  disabledReason?: string;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const design = useQuery({
    queryKey: DIY_RECORD_KEYS.design(tableId),
    queryFn: () => diyRecordApi.design(tableId),
    retry: false,
  });
  const item = design.data?.item;
  if (!item?.myAuth.import) return null;
  const current = item.currentPeriod ? { id: item.currentPeriod.id, name: item.currentPeriod.name } : null;
  return (
    <>
      <Tooltip title={disabledReason}>
        <Button
          icon={<ImportOutlined />}
          disabled={disabledReason !== undefined}
          onClick={() => setOpen(true)}
          data-testid="diy-record-import"
        >
          {t('diyImport.button')}
        </Button>
      </Tooltip>
      <ImportWizard
        open={open}
        tableId={tableId}
        title={item.title}
        period={period ?? current}
        onClose={() => setOpen(false)}
        onImported={onImported}
      />
    </>
  );
}
