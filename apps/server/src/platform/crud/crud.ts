import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import {
  addResultSchema,
  auditFieldsSchema,
  batchDeleteInputSchema,
  detailQuerySchema,
  idInputSchema,
  idParamsSchema,
  setStatusInputSchema,
} from '@shuzhi/contracts/crud';
import { type PageInput, pageResultSchema } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import { own } from '@shuzhi/contracts/own';
import {
  isPermission,
  type PERMISSION_RESOURCES,
  type Permission,
  type RouteAccess,
} from '@shuzhi/contracts/permissions';
import type { FastifyInstance } from 'fastify';
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely';
import { z } from 'zod';
import type { Database } from '../../db/schema.ts';
import { dataScopeOf, whereInScope } from '../access/data-scope.ts';
import { type DiffEntry, recordDiff } from '../audit/audit.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError, ValidationError } from '../errors/app-error.ts';
import { paged } from '../http/paging.ts';
import { defineRoute } from '../http/route.ts';
import { type SnakeToCamel, toColumn, toField } from './case.ts';
import { type ExportColumn, sendXlsx } from './export.ts';
import { applyFilters, type FilterRule } from './filters.ts';

export type TableName = keyof Database & string;
type Row<TB extends TableName> = Database[TB];
export type ColumnOf<TB extends TableName> = keyof Row<TB> & string;
export type FieldOf<TB extends TableName> = SnakeToCamel<ColumnOf<TB>>;
type Resource = keyof typeof PERMISSION_RESOURCES;

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
type ObjectSchema = z.ZodObject<any>;
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

const LIST_LIMIT = 10_000;
const EXPORT_BATCH = 1_000;
const NULL_RESULT = z.null();

// biome-ignore lint/suspicious/noExplicitAny: inside the factory, table and columns come from the typed declaration.
type AnyDb = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see above.
type AnyRow = Record<string, any>;

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** Throws the validation failure (code 400, field errors) that `schema` reports for `value`. */
function invalid(schema: z.ZodType, value: unknown, part: 'body' | 'querystring'): never {
  const parsed = schema.safeParse(value, { reportInput: true });
  throw new ValidationError(parsed.success ? [] : parsed.error.issues, part);
}

/**
 * The one CRUD factory (DESIGN §3.4): registers a resource's routes with `defineRoute`, so each has its
 * schemas, an access declaration and the envelope. Reads exclude soft-deleted rows and apply the tenant
 * filter (tenant tables; the super admin sees every tenant) and the data scope hook; writes run in one
 * transaction, stamp the audit columns, check unique keys (D1006) and refuse ids that are missing, deleted or
 * out of sight (D1002); reads never write.
 */
export function defineCrud<
  TB extends TableName,
  Item extends ObjectSchema,
  Page extends ObjectSchema,
  Add extends ObjectSchema,
  Update extends ObjectSchema,
>(
  app: FastifyInstance,
  ctx: AppContext,
  spec: CrudSpec<TB, Item, Page, Add, Update>,
): CrudService<z.output<Item>> {
  type ItemOut = z.output<Item>;
  const { resource, title, hooks = {} } = spec;
  const table: string = spec.table;
  const db = ctx.db as unknown as AnyDb;
  const tenant = (spec as { tenant?: boolean }).tenant === true;
  const ownOrg = (spec as { ownOrg?: boolean }).ownOrg === true;
  const base = `/api/${resource}`;
  const tags = [resource];
  const fields = Object.keys(spec.item.shape);
  const columns = fields.map(toColumn);
  // What a client may set: the item's fields except those the factory owns.
  const owned = new Set([
    ...Object.keys(auditFieldsSchema.shape),
    'id',
    'tenantId',
    'isDelete',
    'createOrgId',
    'createOrgName',
  ]);
  const writable = new Set(fields.filter((f) => !owned.has(f)));
  const sortable = Object.fromEntries((spec.sortable ?? []).map((f) => [f, toColumn(f)]));
  const listOrder = spec.listOrder ?? [['id', 'desc'] as const];
  const filters = (spec.filters ?? {}) as Record<string, FilterRule<string>>;
  const omitted = new Set<string>(spec.omit ?? []);
  const listSchema = spec.page.omit({ page: true, pageSize: true, field: true, order: true, descStr: true });

  const access = (action: CrudAction): RouteAccess => {
    const declared = spec.access?.[action];
    if (declared) return declared;
    const wanted = `${resource}:${action}`;
    if (isPermission(wanted)) return wanted;
    if (action === 'batchDelete') return `${resource}:delete` as Permission;
    throw new Error(`${resource}: no catalogue permission for ${action}; add it to contracts/permissions.ts`);
  };

  const toItem = (row: AnyRow): ItemOut => {
    const item: AnyRow = {};
    for (let i = 0; i < fields.length; i++) item[fields[i] as string] = row[columns[i] as string] ?? null;
    return item as ItemOut;
  };

  /** Live rows the user may see (soft delete, tenant, data scope), nothing selected yet. */
  async function visible(from: AnyDb, user: AuthUser) {
    let query = from.selectFrom(table).where('is_delete', '=', 0);
    if (tenant && user.accountType !== ACCOUNT_TYPE.superAdmin) {
      query = query.where('tenant_id', '=', user.tenantId);
    }
    // Inside a write the scope lookups must run on the transaction: SQLite has one connection, and a query
    // on `ctx.db` would wait for the transaction that waits for it (a data-scope cache miss deadlocked).
    const scoped = from === db ? ctx : { ...ctx, db: from as unknown as AppContext['db'] };
    // biome-ignore lint/suspicious/noExplicitAny: the hook is typed for the declaration's table.
    if (spec.scope) query = (await spec.scope(query as any, user, scoped)) as any;
    else if (ownOrg) {
      // Business rows: the one data-scope rule (rows of the caller's row orgs, or rows they created).
      query = whereInScope(query, await dataScopeOf(scoped, user), 'create_org_id', 'create_user_id');
    }
    return query;
  }

  async function filtered(user: AuthUser, input: Record<string, unknown>) {
    return applyFilters(await visible(db, user), filters, input, ctx.dialect);
  }

  async function detail(id: number, user: AuthUser): Promise<ItemOut> {
    const row = await (await visible(db, user)).select(columns).where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('D1002');
    return toItem(row);
  }

  async function list(input: Record<string, unknown>, user: AuthUser): Promise<ItemOut[]> {
    let query = (await filtered(user, input)).select(columns);
    for (const [column, direction] of listOrder) query = query.orderBy(column, direction);
    if (!listOrder.some(([column]) => column === 'id')) query = query.orderBy('id', 'desc');
    return (await query.limit(LIST_LIMIT).execute()).map(toItem);
  }

  /** Rows for a write, locked in by the transaction; D1002 unless every id is there. */
  async function rowsFor(trx: Transaction<Database>, user: AuthUser, ids: number[]): Promise<AnyRow[]> {
    const unique = [...new Set(ids)];
    const rows = await (await visible(trx as unknown as AnyDb, user))
      .selectAll()
      .where('id', 'in', unique)
      .execute();
    if (rows.length !== unique.length) throw new AppError('D1002');
    return rows;
  }

  type Diff = Pick<DiffEntry, 'recordId' | 'operation' | 'before' | 'after'>;
  type Attempt = { row?: AnyRow; selfId?: number; diffs: Diff[] };
  /** A row in API field names, for a diff log (only built for sensitive tables). */
  const fieldsOf = (row: AnyRow): AnyRow =>
    Object.fromEntries(Object.entries(row).map(([column, value]) => [toField(column), value]));

  const audit = (user: AuthUser) => ({
    update_time: formatDateTime(),
    update_user_id: user.userId,
    update_user_name: user.realName,
  });

  function columnsOf(input: AnyRow): AnyRow {
    const values: AnyRow = {};
    for (const [field, value] of Object.entries(input)) {
      if (value !== undefined && writable.has(field)) values[toColumn(field)] = value;
    }
    return values;
  }

  async function checkUnique(trx: Transaction<Database>, row: AnyRow, selfId: number | null) {
    for (const key of spec.unique ?? []) {
      const column = toColumn(key.field);
      const value = row[column];
      if (value === null || value === undefined) continue;
      let query = (trx as unknown as AnyDb)
        .selectFrom(table)
        .select('id')
        .where(column, '=', value)
        .where('is_delete', '=', 0);
      for (const other of key.within ?? []) query = query.where(toColumn(other), '=', row[toColumn(other)]);
      if (tenant) query = query.where('tenant_id', '=', row.tenant_id);
      if (selfId !== null) query = query.where('id', '!=', selfId);
      if (await query.executeTakeFirst())
        throw new AppError('D1006', { field: key.label, value: String(value) });
    }
  }

  /**
   * Runs a write in one transaction, then `afterChange`. Should a unique index trip all the same (a concurrent
   * write won the race), the committed winner is there to name in the D1006.
   */
  async function write<T>(
    user: AuthUser,
    action: WriteAction,
    run: (trx: Transaction<Database>, attempt: Attempt) => Promise<{ ids: number[]; result: T }>,
    traceId: string | null = null,
  ): Promise<T> {
    const attempt: Attempt = { diffs: [] };
    let done: { ids: number[]; result: T };
    try {
      done = await ctx.db.transaction().execute((trx) => run(trx, attempt));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (attempt.row) {
        await ctx.db
          .transaction()
          .execute((trx) => checkUnique(trx, attempt.row as AnyRow, attempt.selfId ?? null));
      }
      const key = spec.unique?.[0];
      throw new AppError('D1006', {
        field: key?.label ?? { 'zh-CN': '记录', en: 'Record', 'zh-TW': '記錄' },
        value: key ? String(attempt.row?.[toColumn(key.field)] ?? '') : '',
      });
    }
    if (spec.sensitive) {
      for (const diff of attempt.diffs) recordDiff(ctx, { ...diff, table, user, traceId });
    }
    await hooks.afterChange?.({ ctx, user, action, ids: done.ids });
    return done.result;
  }

  async function add(input: AnyRow, user: AuthUser, traceId: string | null): Promise<number> {
    return write(
      user,
      'add',
      async (trx, attempt) => {
        const id = ctx.newId();
        const values: AnyRow = {
          ...columnsOf(input),
          id,
          create_time: formatDateTime(),
          update_time: null,
          create_user_id: user.userId,
          create_user_name: user.realName,
          update_user_id: null,
          update_user_name: null,
          is_delete: 0,
          ...(tenant ? { tenant_id: user.tenantId } : {}),
          ...(ownOrg ? { create_org_id: user.orgId || null, create_org_name: user.orgName || null } : {}),
        };
        await hooks.beforeAdd?.({
          ctx,
          trx,
          user,
          input: input as z.output<Add>,
          values: values as Partial<Row<TB>>,
        });
        attempt.row = values;
        await checkUnique(trx, values, null);
        await (trx as unknown as AnyDb).insertInto(table).values(values).execute();
        if (spec.sensitive)
          attempt.diffs.push({ recordId: id, operation: 'add', before: null, after: fieldsOf(values) });
        return { ids: [id], result: id };
      },
      traceId,
    );
  }

  async function update(input: AnyRow, user: AuthUser, traceId: string | null): Promise<null> {
    const id = input.id as number;
    return write(
      user,
      'update',
      async (trx, attempt) => {
        const [row] = await rowsFor(trx, user, [id]);
        const values = columnsOf(input);
        await hooks.beforeUpdate?.({
          ctx,
          trx,
          user,
          input: input as z.output<Update>,
          values: values as Partial<Row<TB>>,
          row: row as Row<TB>,
        });
        attempt.row = { ...row, ...values };
        attempt.selfId = id;
        await checkUnique(trx, attempt.row, id);
        const stamped = { ...values, ...audit(user) };
        await (trx as unknown as AnyDb).updateTable(table).set(stamped).where('id', '=', id).execute();
        if (spec.sensitive) {
          const before = row as AnyRow;
          attempt.diffs.push({
            recordId: id,
            operation: 'update',
            before: fieldsOf(before),
            after: fieldsOf({ ...before, ...stamped }),
          });
        }
        return { ids: [id], result: null };
      },
      traceId,
    );
  }

  async function setStatus(
    id: number,
    status: number,
    user: AuthUser,
    traceId: string | null,
  ): Promise<null> {
    return write(
      user,
      'setStatus',
      async (trx, attempt) => {
        const [row] = await rowsFor(trx, user, [id]);
        await hooks.beforeSetStatus?.({ ctx, trx, user, status, row: row as Row<TB> });
        const stamped = { status, ...audit(user) };
        await (trx as unknown as AnyDb).updateTable(table).set(stamped).where('id', '=', id).execute();
        if (spec.sensitive) {
          const before = row as AnyRow;
          attempt.diffs.push({
            recordId: id,
            operation: 'update',
            before: fieldsOf(before),
            after: fieldsOf({ ...before, ...stamped }),
          });
        }
        return { ids: [id], result: null };
      },
      traceId,
    );
  }

  async function remove(ids: number[], user: AuthUser, traceId: string | null): Promise<null> {
    return write(
      user,
      'delete',
      async (trx, attempt) => {
        const rows = await rowsFor(trx, user, ids);
        await hooks.beforeDelete?.({ ctx, trx, user, rows: rows as Row<TB>[] });
        const found = rows.map((r) => r.id as number);
        await (trx as unknown as AnyDb)
          .updateTable(table)
          .set({ is_delete: 1, ...audit(user) })
          .where('id', 'in', found)
          .execute();
        if (spec.sensitive) {
          for (const row of rows) {
            attempt.diffs.push({
              recordId: row.id as number,
              operation: 'delete',
              before: fieldsOf(row),
              after: null,
            });
          }
        }
        return { ids: found, result: null };
      },
      traceId,
    );
  }

  // Routes.
  const item = spec.item as z.ZodType<ItemOut>;
  const summary = (what: string) => `${title.en}: ${what}`;

  if (!omitted.has('page')) {
    const pageOf = async (input: AnyRow, user: AuthUser) =>
      paged((await filtered(user, input)).select(columns), input as PageInput, {
        sortable,
        defaultOrder: 'id',
        map: toItem,
      });
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/page`,
      access: access('page'),
      summary: summary('page'),
      tags,
      body: spec.page,
      response: pageResultSchema(item),
      handler: ({ body, req }) => pageOf(body as AnyRow, req.user as AuthUser),
    });
    defineRoute(app, ctx, {
      method: 'GET',
      url: `${base}/page`,
      access: access('page'),
      summary: summary('page (query)'),
      tags,
      query: spec.page,
      response: pageResultSchema(item),
      handler: ({ query, req }) => pageOf(query as AnyRow, req.user as AuthUser),
    });
  }

  if (!omitted.has('list')) {
    defineRoute(app, ctx, {
      method: 'GET',
      url: `${base}/list`,
      access: access('list'),
      summary: summary(`list (at most ${LIST_LIMIT})`),
      tags,
      query: listSchema,
      response: z.array(item),
      handler: ({ query, req }) => list(query as AnyRow, req.user as AuthUser),
    });
  }

  if (!omitted.has('detail')) {
    defineRoute(app, ctx, {
      method: 'GET',
      url: `${base}/detail`,
      access: access('detail'),
      summary: summary('detail'),
      tags,
      query: detailQuerySchema,
      response: item,
      handler: ({ query, req }) => detail(query.Id, req.user as AuthUser),
    });
    defineRoute(app, ctx, {
      method: 'GET',
      url: `${base}/:id(^\\d+$)`,
      access: access('detail'),
      summary: summary('detail by path'),
      tags,
      params: idParamsSchema,
      response: item,
      handler: ({ params, req }) => detail(params.id, req.user as AuthUser),
    });
  }

  const required = <S>(schema: S | undefined, action: string): S => {
    if (!schema) throw new Error(`${resource}: declare \`${action}\` or omit it`);
    return schema;
  };

  if (!omitted.has('add')) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/add`,
      access: access('add'),
      summary: summary('add; answers the new id'),
      tags,
      body: required(spec.add, 'add'),
      response: addResultSchema,
      handler: ({ body, req }) => add(body as AnyRow, req.user as AuthUser, req.id),
    });
  }

  if (!omitted.has('update')) {
    for (const [method, url] of [
      ['POST', 'update'],
      ['PUT', 'update'],
      ['PUT', 'put'],
    ] as const) {
      defineRoute(app, ctx, {
        method,
        url: `${base}/${url}`,
        access: access('update'),
        summary: summary('update'),
        tags,
        body: required(spec.update, 'update'),
        response: NULL_RESULT,
        handler: ({ body, req }) => update(body as AnyRow, req.user as AuthUser, req.id),
      });
    }
  }

  if (!omitted.has('delete')) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/delete`,
      access: access('delete'),
      summary: summary('delete (soft)'),
      tags,
      body: idInputSchema,
      response: NULL_RESULT,
      handler: ({ body, req }) => remove([body.id], req.user as AuthUser, req.id),
    });
    const deleteQuery = z.object({
      id: idInputSchema.shape.id.optional(),
      Id: idInputSchema.shape.id.optional(),
    });
    defineRoute(app, ctx, {
      method: 'DELETE',
      url: `${base}/delete`,
      access: access('delete'),
      summary: summary('delete (soft); id in the body or the query'),
      tags,
      query: deleteQuery,
      body: idInputSchema.nullish(),
      response: NULL_RESULT,
      handler: ({ body, query, req }) => {
        const id = body?.id ?? query.id ?? query.Id;
        if (id === undefined) invalid(idInputSchema, body ?? {}, 'body');
        return remove([id], req.user as AuthUser, req.id);
      },
    });
    defineRoute(app, ctx, {
      method: 'DELETE',
      url: `${base}/:id(^\\d+$)`,
      access: access('delete'),
      summary: summary('delete (soft) by path'),
      tags,
      params: idParamsSchema,
      response: NULL_RESULT,
      handler: ({ params, req }) => remove([params.id], req.user as AuthUser, req.id),
    });
  }

  if (spec.batchDelete) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/batchDelete`,
      access: access('batchDelete'),
      summary: summary('delete several (soft), all or nothing'),
      tags,
      body: batchDeleteInputSchema,
      response: NULL_RESULT,
      handler: ({ body, req }) => remove(Array.isArray(body) ? body : body.ids, req.user as AuthUser, req.id),
    });
  }

  if (spec.setStatus) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/setStatus`,
      access: access('setStatus'),
      summary: summary('enable (1) or disable (2)'),
      tags,
      body: setStatusInputSchema,
      response: NULL_RESULT,
      handler: ({ body, req }) => setStatus(body.id, body.status, req.user as AuthUser, req.id),
    });
  }

  const exportColumns = spec.export;
  if (exportColumns) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/export`,
      access: access('export'),
      raw: true,
      summary: summary('Excel (.xlsx) of the rows matching the filters, in the request language'),
      tags,
      body: spec.page,
      response: z.unknown(),
      handler: async ({ body, req, reply, locale }) => {
        const input = body as AnyRow;
        const user = req.user as AuthUser;
        const query = (await filtered(user, input)).select(columns);
        const column = input.field && input.order ? own(sortable, input.field as string) : undefined;
        const ordered = column
          ? query.orderBy(column, input.order === input.descStr ? 'desc' : 'asc').orderBy('id', 'desc')
          : query.orderBy('id', 'desc');
        async function* batches() {
          for (let offset = 0; ; offset += EXPORT_BATCH) {
            const rows = await ordered.limit(EXPORT_BATCH).offset(offset).execute();
            yield rows.map((r) => toItem(r) as AnyRow);
            if (rows.length < EXPORT_BATCH) return;
          }
        }
        return sendXlsx(ctx, reply, { title, locale, columns: exportColumns, batches: batches() });
      },
    });
  }

  return { detail, list };
}
