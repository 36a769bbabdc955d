import type { FormRow } from '@shuzhi/contracts/diy-table';
import { App, Button, type ButtonProps } from 'antd';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Auth } from '../platform/access/access.tsx';

/** What a report kind's config dialog takes: `target` null (closed), `{}` (a new report) or the report's settings. */
type ConfigModalProps<T> = {
  target: T | null;
  onClose: () => void;
  onSaved: (id: number, isNew: boolean) => void;
};

/** A kind of report that 表单管理 lists among the forms but builds in a dialog (roll-ups, query reports). */
export type DialogReportKind<T> = {
  reportType: number;
  /** The dialog that creates or edits a report of this kind; it closes itself once saved. */
  Modal: ComponentType<ConfigModalProps<T>>;
  /** The page that shows a report of this kind. */
  path: (id: number) => string;
  /** The settings of a listed report, for its dialog. */
  load: (row: FormRow) => T | Promise<T>;
};

/**
 * The toolbar button of 表单管理 (diyTable:add) that opens the dialog of a new report of `kind` and, once it is
 * saved, asks whether to open it.
 */
export function NewReportButton<T>({
  kind,
  icon,
  label,
  createdTitle,
  openLabel,
  testId,
  onSaved,
}: {
  kind: DialogReportKind<T>;
  icon: ReactNode;
  label: string;
  createdTitle: string;
  openLabel: string;
  /** `<testId>` on the button, `<testId>-open` on the question's open button. */
  testId: string;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [target, setTarget] = useState<T | null>(null);
  return (
    <Auth value="diyTable:add">
      <Button icon={icon} onClick={() => setTarget({} as T)} data-testid={testId}>
        {label}
      </Button>
      <kind.Modal
        target={target}
        onClose={() => setTarget(null)}
        onSaved={(id) => {
          onSaved();
          void modal.confirm({
            title: createdTitle,
            okText: openLabel,
            cancelText: t('common.cancel'),
            okButtonProps: { 'data-testid': `${testId}-open` } as ButtonProps,
            onOk: () => navigate(kind.path(id)),
          });
        }}
      />
    </Auth>
  );
}

/**
 * For 表单管理's rows: `design(row)` opens the dialog of a report of `kind` instead of the designer, `data(row)`
 * opens the report's page instead of the record list; both answer false for rows of other kinds.
 */
export function useDialogReportRows<T>(
  kind: DialogReportKind<T>,
  onSaved: () => void,
): { design: (row: FormRow) => boolean; data: (row: FormRow) => boolean; modal: ReactNode } {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [target, setTarget] = useState<T | null>(null);
  const ours = (row: FormRow) => row.reportType === kind.reportType;
  return {
    design: (row) => {
      if (!ours(row)) return false;
      Promise.resolve(kind.load(row)).then(setTarget, (error: unknown) =>
        message.error(error instanceof Error ? error.message : String(error)),
      );
      return true;
    },
    data: (row) => {
      if (!ours(row)) return false;
      navigate(kind.path(row.id));
      return true;
    },
    modal: <kind.Modal target={target} onClose={() => setTarget(null)} onSaved={onSaved} />,
  };
}
