import type { PageInput } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import type { PERMISSION_RESOURCES, RouteAccess } from '@shuzhi/contracts/permissions';
import type { SelectQueryBuilder, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../context.ts';
import type { SnakeToCamel } from './case.ts';
import type { ExportColumn } from './export.ts';
import type { FilterRule } from './filters.ts';

/** What a resource declares to `defineCrud` (crud.ts), and what the declaration gives back. */

export type TableName = keyof Database & string;
export type Row<TB extends TableName> = Database[TB];
export type ColumnOf<TB extends TableName> = keyof Row<TB> & string;
export type FieldOf<TB extends TableName> = SnakeToCamel<ColumnOf<TB>>;
export type Resource = keyof typeof PERMISSION_RESOURCES;

export type CrudAction =
  | 'page'
  | 'list'
  | 'detail'
  | 'add'
  | 'update'
  | 'delete'
  | 'batchDelete'
  | 'setStatus'
  | 'export';
export type WriteAction = 'add' | 'update' | 'delete' | 'setStatus';

// biome-ignore lint/suspicious/noExplicitAny: any object schema; the declaration's own types are checked below.
export type ObjectSchema = z.ZodObject<any>;
type PageKeys = keyof PageInput;

/** Narrows a read (list, page, detail, export, and the row lookup of every write) to what the caller may see. */
export type Scope<TB extends TableName> = (
  // biome-ignore lint/complexity/noBannedTypes: a query on the table before anything is selected.
  query: SelectQueryBuilder<Database, TB, {}>,
  user: AuthUser,
  ctx: AppContext,
  // biome-ignore lint/complexity/noBannedTypes: see above.
) => SelectQueryBuilder<Database, TB, {}> | Promise<SelectQueryBuilder<Database, TB, {}>>;

export type HookArgs = { ctx: AppContext; trx: Transaction<Database>; user: AuthUser };

/**
 * Domain rules around the generic writes. The `before…` hooks run inside the write's transaction (throw an
 * AppError to refuse, use `trx` for related rows); `values` are the columns about to be written and may be
 * changed. `afterChange` runs once the transaction has committed (cache invalidation, notifications).
 */
export type CrudHooks<TB extends TableName, AddIn, UpdateIn> = {
  beforeAdd?(args: HookArgs & { input: AddIn; values: Partial<Row<TB>> }): void | Promise<void>;
  beforeUpdate?(
    args: HookArgs & { input: UpdateIn; values: Partial<Row<TB>>; row: Row<TB> },
  ): void | Promise<void>;
  beforeSetStatus?(args: HookArgs & { status: number; row: Row<TB> }): void | Promise<void>;
  /** Single and batch deletes alike. */
  beforeDelete?(args: HookArgs & { rows: Row<TB>[] }): void | Promise<void>;
  afterChange?(args: {
    ctx: AppContext;
    user: AuthUser;
    action: WriteAction;
    ids: number[];
  }): void | Promise<void>;
};

/** A value that must not repeat among live rows (of the same tenant, and of the same `within` values). */
export type UniqueKey<TB extends TableName> = {
  field: FieldOf<TB>;
  within?: readonly FieldOf<TB>[];
  /** Names the field in the D1006 message. */
  label: Localized;
};

type Filters<TB extends TableName, Page extends ObjectSchema> = {
  [K in Exclude<keyof z.output<Page>, PageKeys>]?: FilterRule<ColumnOf<TB>>;
};

/** Every key of `item` must be a column of the table (camelCase); a typo fails to compile. */
type ColumnsOnly<TB extends TableName, Item extends ObjectSchema> =
  Exclude<keyof z.output<Item>, FieldOf<TB>> extends never
    ? unknown
    : { notColumns: Exclude<keyof z.output<Item>, FieldOf<TB>> };

/** Tenant tables must say so, so that nobody forgets the tenant filter. */
type TenantFlag<TB extends TableName> =
  Row<TB> extends { tenant_id: number } ? { tenant: true } : { tenant?: never };
/** Business tables (create_org_id) must say so: the factory stamps the creator's org on them. */
type OrgFlag<TB extends TableName> =
  Row<TB> extends { create_org_id: unknown } ? { ownOrg: true } : { ownOrg?: never };
type StatusFlag<TB extends TableName> = Row<TB> extends { status: number } ? boolean : never;

export type CrudSpec<
  TB extends TableName,
  Item extends ObjectSchema,
  Page extends ObjectSchema,
  Add extends ObjectSchema,
  Update extends ObjectSchema,
> = {
  /** URL segment (`/api/{resource}/…`) and permission prefix (`{resource}:{action}`). */
  resource: Resource;
  table: TB;
  /** OpenAPI summaries, the export's sheet and file name. */
  title: Localized;
  /** A row as the API returns it; its keys are the readable (and writable) columns in camelCase. */
  item: Item & ColumnsOnly<TB, Item>;
  /** Page request: `pageInputSchema` extended with the filters; `list` and `export` take the same filters. */
  page: Page;
  filters?: Filters<TB, Page>;
  /** Fields a client may sort by; any other `field` is ignored (default order: newest first). */
  sortable?: readonly FieldOf<TB>[];
  /** Order of `list` (default newest first). */
  listOrder?: readonly (readonly [ColumnOf<TB>, 'asc' | 'desc'])[];
  /** Add input; keys that are item fields become columns, others are for the hooks (required unless omitted). */
  add?: Add;
  /** Update input with `id`; fields left out keep their value (required unless omitted). */
  update?: Update;
  unique?: readonly UniqueKey<TB>[];
  /** `POST /setStatus {id, status}`. */
  setStatus?: StatusFlag<TB>;
  /** `POST /batchDelete {ids}` (permission `{resource}:batchDelete` if the catalogue has it, else `:delete`). */
  batchDelete?: boolean;
  /** `POST /export`: the columns of the .xlsx. */
  export?: readonly ExportColumn<keyof z.output<Item> & string>[];
  /**
   * Field diffs: every add, update, status change and delete writes the row before and after to
   * `sys_log_diff` once the write has committed (DESIGN §5: sensitive tables keep a field diff).
   */
  sensitive?: boolean;
  /** Core routes the module serves itself, or that a resource does not have (read-only logs). */
  omit?: readonly ('page' | 'list' | 'detail' | 'add' | 'update' | 'delete')[];
  /** Access per action; default `{resource}:{action}`. */
  access?: Partial<Record<CrudAction, RouteAccess>>;
  /**
   * Data scope: narrows every read and the row lookup of every write. Business tables (`ownOrg`) get the
   * platform's rule by default (platform/access/data-scope.ts: row orgs on create_org_id, own rows on
   * create_user_id); identity tables declare theirs.
   */
  scope?: Scope<TB>;
  hooks?: CrudHooks<TB, z.output<Add>, z.output<Update>>;
} & TenantFlag<TB> &
  OrgFlag<TB>;

/** What a declaration gives back: the same operations the routes run, for a module's own routes. */
export type CrudService<Item> = {
  /** A visible live row by id, as an item; D1002 when there is none. */
  detail(id: number, user: AuthUser): Promise<Item>;
  /** Visible live rows matching the filters, in list order. */
  list(filters: Record<string, unknown>, user: AuthUser): Promise<Item[]>;
};
