import { auditFieldsSchema } from '@shuzhi/contracts/crud';
import type { Localized } from '@shuzhi/contracts/i18n';
import { isPermission, type Permission, type RouteAccess } from '@shuzhi/contracts/permissions';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import { toColumn } from './case.ts';
import type {
  CrudAction,
  CrudHooks,
  CrudSpec,
  ObjectSchema,
  Resource,
  Scope,
  UniqueKey,
} from './crud-spec.ts';
import type { FilterRule } from './filters.ts';

// biome-ignore lint/suspicious/noExplicitAny: inside the factory, table and columns come from the typed declaration.
export type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see above.
export type AnyRow = Record<string, any>;

/**
 * A declaration read once into what the reads, writes and routes of `defineCrud` share: the table, its
 * readable and writable columns, sort and filter rules, and the access of each action. Typed loosely on
 * purpose: the declaration (`CrudSpec`) is where the table's types are checked.
 */
export type CrudPlan = {
  ctx: AppContext;
  db: AnyDb;
  resource: Resource;
  title: Localized;
  table: string;
  /** Tenant table: reads see the caller's tenant (the super admin every tenant), adds stamp it. */
  tenant: boolean;
  /** Business table: adds stamp the creator's org; reads get the platform's data scope unless `scope`. */
  ownOrg: boolean;
  /** The item's fields (camelCase) and their columns, in the same order. */
  fields: string[];
  columns: string[];
  /** What a client may set: the item's fields except those the factory owns. */
  writable: Set<string>;
  sortable: Record<string, string>;
  listOrder: readonly (readonly [string, 'asc' | 'desc'])[];
  filters: Record<string, FilterRule<string>>;
  // biome-ignore lint/suspicious/noExplicitAny: the keys are checked on the declaration.
  unique: readonly UniqueKey<any>[];
  sensitive: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the hook is typed for the declaration's table.
  scope: Scope<any> | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: the hooks are typed on the declaration.
  hooks: CrudHooks<any, any, any>;
  /** A selected row (snake_case columns) as an item (camelCase fields, missing ones null). */
  toItem(row: AnyRow): AnyRow;
  /** The access of an action: declared, else `{resource}:{action}` from the catalogue. */
  access(action: CrudAction): RouteAccess;
};

/** Columns the factory writes itself, whatever the input says. */
const OWNED_FIELDS = new Set([
  ...Object.keys(auditFieldsSchema.shape),
  'id',
  'tenantId',
  'isDelete',
  'createOrgId',
  'createOrgName',
]);

export function planCrud(
  ctx: AppContext,
  // biome-ignore lint/suspicious/noExplicitAny: any declaration; `defineCrud` checks it against its table.
  spec: CrudSpec<any, ObjectSchema, ObjectSchema, ObjectSchema, ObjectSchema>,
): CrudPlan {
  const { resource } = spec;
  const fields = Object.keys(spec.item.shape);
  const columns = fields.map(toColumn);

  const toItem = (row: AnyRow): AnyRow => {
    const item: AnyRow = {};
    for (let i = 0; i < fields.length; i++) item[fields[i] as string] = row[columns[i] as string] ?? null;
    return item;
  };

  const access = (action: CrudAction): RouteAccess => {
    const declared = spec.access?.[action];
    if (declared) return declared;
    const wanted = `${resource}:${action}`;
    if (isPermission(wanted)) return wanted;
    if (action === 'batchDelete') return `${resource}:delete` as Permission;
    throw new Error(`${resource}: no catalogue permission for ${action}; add it to contracts/permissions.ts`);
  };

  return {
    ctx,
    db: ctx.db as unknown as AnyDb,
    resource,
    title: spec.title,
    table: spec.table,
    tenant: (spec as { tenant?: boolean }).tenant === true,
    ownOrg: (spec as { ownOrg?: boolean }).ownOrg === true,
    fields,
    columns,
    writable: new Set(fields.filter((f) => !OWNED_FIELDS.has(f))),
    sortable: Object.fromEntries((spec.sortable ?? []).map((f: string) => [f, toColumn(f)])),
    listOrder: spec.listOrder ?? [['id', 'desc'] as const],
    filters: (spec.filters ?? {}) as Record<string, FilterRule<string>>,
    unique: spec.unique ?? [],
    sensitive: spec.sensitive === true,
    scope: spec.scope,
    hooks: spec.hooks ?? {},
    toItem,
    access,
  };
}
