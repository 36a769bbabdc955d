import type { QueryKey } from '@tanstack/react-query';
import type { FormRule } from 'antd';
import type { ColumnType } from 'antd/es/table';
import type { ReactNode } from 'react';
import type { Resource, WithId } from '../../platform/data/resource.ts';

type CrudMode = 'add' | 'edit';
export type CrudFormContext<T> = { mode: CrudMode; record?: T };

/** A table column; widths come from the SPEC §9 estimate unless the column sets one. */
export type CrudColumn<T> = Omit<ColumnType<T>, 'sorter' | 'sortOrder' | 'title'> & {
  key: string;
  /** A translated title; text keeps the width estimate meaningful. */
  title: string;
  /** Server sort field; `true` sorts by the key. */
  sort?: boolean | string;
  /** The text a cell shows, for the width estimate (defaults to the raw value). */
  widthText?: (row: T) => unknown;
};

export type CrudSearchField = {
  name: string;
  label: string;
  /** Defaults to a text input; Enter in it searches. */
  input?: ReactNode;
  width?: number;
};

export type CrudFormField<T> = {
  name: string;
  label: string;
  rules?: FormRule[];
  input?: ReactNode | ((context: CrudFormContext<T>) => ReactNode);
  initialValue?: unknown;
  valuePropName?: string;
  tooltip?: ReactNode;
  extra?: ReactNode;
  /** Half-width fields pair up on a row; full width is the default for text areas. */
  half?: boolean;
  hidden?: (context: CrudFormContext<T>) => boolean;
};

/** Button permissions; an action without one is not offered, one the user lacks is removed. */
type CrudPermissions = Partial<
  Record<'add' | 'update' | 'delete' | 'batchDelete' | 'setStatus' | 'export', string>
>;

export type CrudPageProps<T extends WithId, F extends object> = {
  resource: Resource<T, F>;
  /** Name of one record, e.g. 参数; used in titles and messages. */
  entityName: string;
  columns: CrudColumn<T>[];
  permissions: CrudPermissions;
  searchFields?: CrudSearchField[];
  formFields?: CrudFormField<T>[];
  /** Filters always sent (e.g. the selected dictionary type); changing them returns to page 1. */
  fixedFilters?: Partial<F>;
  /** Values every new record starts with and every add sends (e.g. the dictTypeId). */
  formDefaults?: Partial<T>;
  toFormValues?: (record: T) => Record<string, unknown>;
  toPayload?: (values: Record<string, unknown>, context: CrudFormContext<T>) => Partial<T>;
  /** A record this returns false for keeps its delete button disabled, with `deleteBlockedText`. */
  canDelete?: (row: T) => boolean;
  deleteBlockedText?: string;
  /** Adds a status column (1 enabled, 2 disabled) with a switch when setStatus is permitted. */
  statusField?: keyof T & string;
  /** A record this returns false for keeps its status switch disabled, with `statusBlockedText` as tooltip. */
  canSetStatus?: (row: T) => boolean;
  statusBlockedText?: string | ((row: T) => string);
  rowActions?: (row: T) => ReactNode;
  toolbarExtra?: ReactNode;
  title?: ReactNode;
  exportFileName?: string;
  /** Other caches a write here changes. */
  invalidates?: readonly QueryKey[];
  onSaved?: () => void;
  onRowClick?: (row: T) => void;
  /** Called with the rows of each page that arrives. */
  onLoaded?: (rows: T[]) => void;
  selectedRowId?: number | null;
  /** When false nothing is requested and `disabledText` shows instead of rows. */
  enabled?: boolean;
  disabledText?: string;
  defaultPageSize?: number;
  /** The sort before the user picks one (the server's default is newest first). */
  defaultSort?: { field: string; order: 'ascending' | 'descending' };
  modalWidth?: number;
  /** Room the actions column needs besides edit and delete; 0 means `rowActions` has nothing for this user. */
  extraActionWidth?: number;
  testId?: string;
  compact?: boolean;
};
