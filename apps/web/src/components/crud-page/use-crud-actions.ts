import { App, type FormInstance } from 'antd';
import { type Dispatch, type SetStateAction, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import type { PageRequest, WithId } from '../../platform/data/resource.ts';
import { useResourceWrites } from '../../platform/data/use-resource.ts';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { useReclickGuard } from '../use-reclick-guard.ts';
import type { CrudOptions } from './crud-options.ts';
import type { CrudFormContext } from './crud-types.ts';

/** The add / edit dialog's subject; `key` makes each opening a fresh form. */
export type CrudEditing<T> = { mode: 'add' | 'edit'; record?: T; key: number };

type ActionState<F extends object> = {
  selected: number[];
  setSelected: Dispatch<SetStateAction<number[]>>;
  /** The current page request (the export sends its filters and sort). */
  body: PageRequest<F>;
  editForm: FormInstance;
};

/** What CrudPage does to its records: delete (one or the selection), status, export, and add / edit. */
export function useCrudActions<T extends WithId, F extends object>(
  options: CrudOptions<T, F>,
  { selected, setSelected, body, editForm }: ActionState<F>,
) {
  const { resource, invalidates, onSaved, formFields, formDefaults, toPayload, exportFileName } = options;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const writes = useResourceWrites(resource, invalidates);
  const [editing, setEditing] = useState<CrudEditing<T> | null>(null);
  const [exportPercent, setExportPercent] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const remove = useReclickGuard((id: number) => {
    writes.remove.mutate(id, {
      onSuccess: () => {
        message.success(t('crud.deleted'));
        setSelected((keys) => keys.filter((key) => key !== id));
        onSaved?.();
      },
      onError: showError,
    });
  });

  const batchRemove = useReclickGuard(() => {
    if (selected.length === 0) return;
    writes.batchRemove.mutate(selected, {
      onSuccess: () => {
        message.success(t('crud.deleted'));
        setSelected([]);
        onSaved?.();
      },
      onError: showError,
    });
  });

  const toggleStatus = (row: T) => {
    const current = (row as Record<string, unknown>)[options.statusField as string];
    writes.setStatus.mutate(
      { id: row.id, status: current === 1 ? 2 : 1 },
      {
        onSuccess: () => {
          message.success(t('crud.statusChanged'));
          onSaved?.();
        },
        onError: showError,
      },
    );
  };

  const runExport = useReclickGuard(async () => {
    setExporting(true);
    setExportPercent(null);
    try {
      const { page: _page, pageSize, ...rest } = body;
      const name = `${exportFileName ?? resource.service}.xlsx`;
      await resource.exportFile({ ...rest, page: 1, pageSize } as PageRequest<F>, name, {
        onProgress: setExportPercent,
      });
      message.success(t('crud.exported'));
    } catch (error) {
      if (!(error instanceof HttpError)) showError(error);
    } finally {
      setExporting(false);
      setExportPercent(null);
    }
  });

  const saving = writes.add.isPending || writes.update.isPending;
  const submit = useReclickGuard((values: Record<string, unknown>) => {
    if (!editing || saving) return;
    const context: CrudFormContext<T> = { mode: editing.mode, record: editing.record };
    const payload = toPayload ? toPayload(values, context) : (values as Partial<T>);
    const onError = (error: unknown) => {
      const names = formFields.map((field) => field.name);
      const { fields, rest } = serverFieldErrors(error, names);
      if (fields.length > 0) {
        editForm.setFields(fields);
        if (rest.length > 0) message.error(rest.join('; '));
        return;
      }
      showError(error);
    };
    const onSuccess = () => {
      message.success(t('crud.saved'));
      setEditing(null);
      onSaved?.();
    };
    if (editing.mode === 'add') {
      writes.add.mutate({ ...(formDefaults ?? {}), ...payload }, { onSuccess, onError });
    } else if (editing.record) {
      writes.update.mutate({ ...payload, id: editing.record.id }, { onSuccess, onError });
    }
  });

  return {
    writes,
    remove,
    batchRemove,
    toggleStatus,
    runExport,
    exporting,
    exportPercent,
    editing,
    openAdd: () => setEditing({ mode: 'add', key: Date.now() }),
    openEdit: (record: T) => setEditing({ mode: 'edit', record, key: Date.now() }),
    closeModal: () => setEditing(null),
    saving,
    submit,
  };
}

export type CrudActions<T extends WithId> = ReturnType<typeof useCrudActions<T, object>>;
