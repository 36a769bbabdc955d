import { STATUS } from '@shuzhi/contracts/envelope';
import type { OrgListItem } from '@shuzhi/contracts/org';
import { useQueryClient } from '@tanstack/react-query';
import { App, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { orgResource } from '../../components/org-tree/org.api.ts';
import { ORG_TREE_KEY } from '../../components/org-tree/use-org-tree.ts';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { resourceKeys } from '../../platform/data/resource.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';

export type Filters = { Name?: string; Code?: string; Type?: string };
export type Editing = { mode: 'add'; parent: OrgListItem | null } | { mode: 'edit'; record: OrgListItem };
export type FormValues = {
  pid: number | null;
  name: string;
  code: string;
  type: string;
  regionCode?: string | null;
  orderNo: number;
  remark?: string | null;
};

const FORM_FIELDS = ['pid', 'name', 'code', 'type', 'regionCode', 'orderNo', 'remark'];

/**
 * The writes of 机构管理: add / edit through the form dialog (`editing`), delete, status and export; each
 * refreshes the list and the org tree. `pending` is the row at work.
 */
export function useOrgActions(editForm: FormInstance<FormValues>, filters: Filters) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: resourceKeys.all('sysOrg') }),
      client.invalidateQueries({ queryKey: ORG_TREE_KEY }),
    ]);
  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const openAdd = (parent: OrgListItem | null) => {
    setEditing({ mode: 'add', parent });
    editForm.resetFields();
    editForm.setFieldsValue({ pid: parent?.id ?? null, orderNo: 100 });
  };
  const openEdit = (record: OrgListItem) => {
    setEditing({ mode: 'edit', record });
    editForm.resetFields();
    editForm.setFieldsValue({
      pid: record.pid || null,
      name: record.name,
      code: record.code,
      type: record.type,
      regionCode: record.regionCode,
      orderNo: record.orderNo,
      remark: record.remark,
    });
  };

  const save = async () => {
    if (!editing) return;
    let values: FormValues;
    try {
      values = await editForm.validateFields();
    } catch {
      return;
    }
    const payload = {
      ...values,
      pid: values.pid ?? 0,
      regionCode: values.regionCode || null,
      remark: values.remark || null,
    };
    setSaving(true);
    try {
      if (editing.mode === 'add') await orgResource.add({ ...payload, status: STATUS.enabled });
      else await orgResource.update({ ...payload, id: editing.record.id });
      message.success(t('crud.saved'));
      setEditing(null);
      await refresh();
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, FORM_FIELDS);
      if (fields.length > 0) {
        editForm.setFields(fields as Parameters<typeof editForm.setFields>[0]);
        if (rest.length > 0) message.error(rest.join('; '));
      } else showError(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (row: OrgListItem) => {
    setPending(row.id);
    try {
      await orgResource.remove(row.id);
      message.success(t('crud.deleted'));
      await refresh();
    } catch (error) {
      // D2000 / D2001 say why (children, users): shown as the server words it.
      showError(error);
    } finally {
      setPending(null);
    }
  };

  const setStatus = async (row: OrgListItem, status: 1 | 2) => {
    setPending(row.id);
    try {
      await orgResource.setStatus(row.id, status);
      message.success(t('crud.statusChanged'));
      await refresh();
    } catch (error) {
      showError(error);
    } finally {
      setPending(null);
    }
  };

  const exportXlsx = async () => {
    setExporting(true);
    try {
      await orgResource.exportFile(
        {
          page: 1,
          pageSize: 20,
          descStr: 'descending',
          name: filters.Name,
          code: filters.Code,
          type: filters.Type,
          field: 'level',
          order: 'ascending',
        },
        `${t('sysOrg.exportName')}.xlsx`,
      );
      message.success(t('crud.exported'));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  return {
    editing,
    closeEdit: () => setEditing(null),
    saving,
    pending,
    exporting,
    refresh,
    openAdd,
    openEdit,
    save,
    remove,
    setStatus,
    exportXlsx,
  };
}

export type OrgActions = ReturnType<typeof useOrgActions>;
