import {
  DeleteOutlined,
  FileDoneOutlined,
  PlusOutlined,
  ReloadOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Button, Popconfirm, Popover, Tooltip, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ImportButton } from '../../../components/diy-import/import-button.tsx';
import { ExportLedgerButton, type LedgerFilters } from './export-ledger.tsx';

type HeaderProps = {
  title: string;
  canAdd: boolean;
  periodic: boolean;
  filable: boolean;
  /** A period to file to is known (零报告 needs one). */
  hasPeriod: boolean;
  onZero: () => void;
  onAdd: () => void;
};

/** The form's title with 零报告 and 新增. */
export function RecordListHeader({
  title,
  canAdd,
  periodic,
  filable,
  hasPeriod,
  onZero,
  onAdd,
}: HeaderProps) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 12, flexWrap: 'wrap' }}>
      <Typography.Title
        level={4}
        style={{ margin: 0, flex: '1 1 auto', minWidth: 0 }}
        ellipsis={{ tooltip: title }}
      >
        <span data-testid="diy-form-table-title">{title}</span>
      </Typography.Title>
      {canAdd && periodic ? (
        <Tooltip title={filable ? undefined : t('diyPeriod.table.notFilable')}>
          <Button
            icon={<FileDoneOutlined />}
            disabled={!filable || !hasPeriod}
            onClick={onZero}
            data-testid="diy-record-zero"
          >
            {t('diyPeriod.table.zero')}
          </Button>
        </Tooltip>
      ) : null}
      {canAdd ? (
        <Tooltip title={filable ? undefined : t('diyPeriod.table.notFilable')}>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            disabled={!filable}
            onClick={onAdd}
            data-testid="diy-record-add"
          >
            {t('diyFormTable.add')}
          </Button>
        </Tooltip>
      ) : null}
    </div>
  );
}

type ToolsProps = {
  tableId: number;
  title: string;
  selected: number[];
  /** Some row may be deleted (or some are selected): 批量删除 is offered. */
  anyDeletable: boolean;
  busy: number | 'batch' | null;
  onBatchDelete: () => void;
  /** Where an import files its records (a periodic form's period). */
  importPeriod: { id: number; name: string } | null;
  filable: boolean;
  canExport: boolean;
  /** The list's filters, which the ledger export applies too. */
  exportFilters: LedgerFilters;
  refreshing: boolean;
  onRefresh: () => void;
  columnChooser: ReactNode;
};

/** The right end of the search bar: selection, 批量删除, 导入, 导出台账, 刷新 and 列设置. */
export function RecordListTools(props: ToolsProps) {
  const { t } = useTranslation();
  const { selected, filable, onRefresh } = props;
  return (
    <>
      <div style={{ flex: 1 }} />
      {selected.length > 0 ? (
        <Typography.Text type="secondary" data-testid="diy-record-selected">
          {t('diyFormTable.selected', { count: selected.length })}
        </Typography.Text>
      ) : null}
      {props.anyDeletable ? (
        <Popconfirm
          title={t('diyFormTable.deleteConfirmTitle')}
          description={t('diyFormTable.batchDeleteConfirm', { count: selected.length })}
          okText={t('diyFormTable.delete')}
          okButtonProps={{ danger: true, 'data-testid': 'diy-record-batch-delete-ok' }}
          cancelText={t('common.cancel')}
          disabled={selected.length === 0}
          onConfirm={props.onBatchDelete}
        >
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={selected.length === 0}
            loading={props.busy === 'batch'}
            data-testid="diy-record-batch-delete"
          >
            {t('diyFormTable.batchDelete')}
          </Button>
        </Popconfirm>
      ) : null}
      <ImportButton
        tableId={props.tableId}
        period={props.importPeriod}
        disabledReason={filable ? undefined : t('diyPeriod.table.notFilable')}
        onImported={onRefresh}
      />
      {props.canExport ? (
        <ExportLedgerButton tableId={props.tableId} title={props.title} filters={props.exportFilters} />
      ) : null}
      <Tooltip title={t('diyFormTable.refresh')}>
        <Button
          icon={<ReloadOutlined />}
          onClick={onRefresh}
          loading={props.refreshing}
          aria-label={t('diyFormTable.refresh')}
          data-testid="diy-record-refresh"
        />
      </Tooltip>
      <ColumnChooserButton label={t('diyFormTable.columns')} chooser={props.columnChooser} />
    </>
  );
}

/** The column chooser's button: its tooltip stays closed while the chooser it names is open. */
function ColumnChooserButton({ label, chooser }: { label: string; chooser: ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={label}
      content={chooser}
      open={open}
      onOpenChange={setOpen}
    >
      <Tooltip title={label} open={open ? false : undefined}>
        <Button icon={<SettingOutlined />} aria-label={label} data-testid="diy-columns" />
      </Tooltip>
    </Popover>
  );
}
