import type { FormDesign } from '@shuzhi/contracts/diy-form';
import { RecordViewDrawer } from '../../../components/diy-record/record-view-drawer.tsx';
import { FillDrawer, type FillTarget } from './fill-drawer.tsx';
import { ZeroReportDialog } from './period-parts.tsx';
import type { useRecordActions } from './use-record-actions.ts';
import { type RecordPeriods, useFillDesign } from './use-record-periods.ts';

type RecordDialogsProps = {
  tableId: number;
  title: string;
  design: FormDesign;
  version: number | undefined;
  periodic: boolean;
  periods: RecordPeriods;
  presets: Record<string, string>;
  askPassword: () => Promise<boolean>;
  actions: Pick<ReturnType<typeof useRecordActions>, 'refresh' | 'refreshPeriods' | 'showError'>;
  viewing: number | null;
  onViewClosed: () => void;
  filling: FillTarget | null;
  onFillClosed: () => void;
  zeroOpen: boolean;
  onZeroClosed: () => void;
};

/** The record list's dialogs: 查看 (a record's view), the fill drawer, and 零报告. */
export function RecordDialogs({
  tableId,
  title,
  design,
  version,
  periodic,
  periods,
  presets,
  askPassword,
  actions,
  viewing,
  onViewClosed,
  filling,
  onFillClosed,
  zeroOpen,
  onZeroClosed,
}: RecordDialogsProps) {
  const { fileTo } = periods;
  const { fillPeriod, fillDesign } = useFillDesign({ tableId, periodic, design, version, filling, periods });
  const { refresh, showError } = actions;
  return (
    <>
      <RecordViewDrawer tableId={tableId} recordId={viewing} open={viewing !== null} onClose={onViewClosed} />
      <FillDrawer
        tableId={tableId}
        title={title}
        design={fillDesign}
        target={filling}
        presets={presets}
        onClose={onFillClosed}
        onSaved={() => void refresh()}
        onFailed={showError}
        askPassword={askPassword}
        period={
          periodic && fillPeriod
            ? { id: fillPeriod.id, name: fillPeriod.name, startDate: fillPeriod.startDate }
            : null
        }
      />
      {periodic && fileTo ? (
        <ZeroReportDialog
          open={zeroOpen}
          tableId={tableId}
          period={fileTo}
          onClose={onZeroClosed}
          onDone={() => {
            onZeroClosed();
            void refresh();
            void actions.refreshPeriods();
          }}
          onFailed={showError}
        />
      ) : null}
    </>
  );
}
