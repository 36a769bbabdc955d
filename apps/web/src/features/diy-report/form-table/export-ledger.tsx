import { DownloadOutlined } from '@ant-design/icons';
import type { LedgerExportInput } from '@shuzhi/contracts/diy-table';
import { App, Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReclickGuard } from '../../../components/use-reclick-guard.ts';
import { downloadFile } from '../../../platform/data/download.ts';
import { HttpError } from '../../../platform/http/http-client.ts';

export const LEDGER_EXPORT_URL = '/api/diyTable/export_ledger';

/** The record page's filters that the ledger takes (no paging or sort). */
export type LedgerFilters = Omit<LedgerExportInput, 'tableId'>;

/** `12.3 MB`: the bytes received so far. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/**
 * 导出: the records matching the list's current filters as an Excel ledger (issue 6 §3), streamed by the
 * server and saved through the download helper; the button shows the bytes received while it runs.
 */
export function ExportLedgerButton({
  tableId,
  title,
  filters,
}: {
  tableId: number;
  title: string;
  filters: LedgerFilters;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [exporting, setExporting] = useState(false);
  const [received, setReceived] = useState(0);

  const run = useReclickGuard(async () => {
    setExporting(true);
    setReceived(0);
    try {
      const input: LedgerExportInput = { tableId, ...filters };
      const name = await downloadFile(LEDGER_EXPORT_URL, `${title}.xlsx`, {
        method: 'post',
        body: input,
        onProgress: (_percent, loaded) => setReceived(loaded),
      });
      message.success(t('diyFormTable.exportLedgerDone', { name }));
    } catch (error) {
      // Envelope errors (no export right, password…) are shown by the HTTP client already.
      if (!(error instanceof HttpError)) {
        message.error(error instanceof Error && error.message ? error.message : t('diyFormTable.failed'));
      }
    } finally {
      setExporting(false);
      setReceived(0);
    }
  });

  return (
    <Tooltip title={t('diyFormTable.exportLedgerHint')}>
      <Button
        icon={<DownloadOutlined />}
        loading={exporting}
        onClick={() => void run()}
        aria-busy={exporting}
        data-testid="diy-record-export"
      >
        {exporting
          ? received > 0
            ? t('diyFormTable.exportLedgerProgress', { size: formatSize(received) })
            : t('diyFormTable.exportingLedger')
          : t('diyFormTable.exportLedger')}
      </Button>
    </Tooltip>
  );
}
