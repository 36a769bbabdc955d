import { own } from '@shuzhi/contracts/own';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../context.ts';
import { defineRoute } from '../http/route.ts';
import { type AnyRow, type CrudPlan, planCrud } from './crud-plan.ts';
import { type CrudReads, crudReads } from './crud-read.ts';
import { registerReadRoutes, registerWriteRoutes, routeBasics } from './crud-routes.ts';
import type { CrudService, CrudSpec, ObjectSchema, TableName } from './crud-spec.ts';
import { crudWrites } from './crud-write.ts';
import { type ExportColumn, sendXlsx } from './export.ts';

export type {
  ColumnOf,
  CrudAction,
  CrudHooks,
  CrudService,
  CrudSpec,
  FieldOf,
  HookArgs,
  Scope,
  TableName,
  UniqueKey,
  WriteAction,
} from './crud-spec.ts';

const EXPORT_BATCH = 1_000;

/**
 * The one CRUD factory (DESIGN §3.4): registers a resource's routes with `defineRoute`, so each has its
 * schemas, an access declaration and the envelope. Reads exclude soft-deleted rows and apply the tenant
 * filter (tenant tables; the super admin sees every tenant) and the data scope hook; writes run in one
 * transaction, stamp the audit columns, check unique keys (D1006) and refuse ids that are missing, deleted or
 * out of sight (D1002); reads never write. The pieces: `crud-plan.ts` (the declaration read once),
 * `crud-read.ts`, `crud-write.ts`, `crud-routes.ts`, and the export route below.
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
  const plan = planCrud(ctx, spec);
  const reads = crudReads(plan);
  registerReadRoutes(app, plan, spec, reads);
  registerWriteRoutes(app, plan, spec, crudWrites(plan, reads));
  if (spec.export) registerExportRoute(app, plan, spec.page, spec.export, reads);
  return { detail: reads.detail, list: reads.list } as CrudService<z.output<Item>>;
}

/** `POST /export`: the rows matching the page's filters, in its order, as .xlsx in the caller's language. */
function registerExportRoute(
  app: FastifyInstance,
  plan: CrudPlan,
  page: ObjectSchema,
  columns: readonly ExportColumn[],
  reads: CrudReads,
): void {
  const { ctx, title } = plan;
  const { base, tags, summary } = routeBasics(plan);
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${base}/export`,
    access: plan.access('export'),
    raw: true,
    summary: summary('Excel (.xlsx) of the rows matching the filters, in the request language'),
    tags,
    body: page,
    response: z.unknown(),
    handler: async ({ body, req, reply, locale }) => {
      const input = body as AnyRow;
      const query = (await reads.filtered(req.user as AuthUser, input)).select(plan.columns);
      const column = input.field && input.order ? own(plan.sortable, input.field as string) : undefined;
      const ordered = column
        ? query.orderBy(column, input.order === input.descStr ? 'desc' : 'asc').orderBy('id', 'desc')
        : query.orderBy('id', 'desc');
      async function* batches() {
        for (let offset = 0; ; offset += EXPORT_BATCH) {
          const rows = await ordered.limit(EXPORT_BATCH).offset(offset).execute();
          yield rows.map(plan.toItem);
          if (rows.length < EXPORT_BATCH) return;
        }
      }
      return sendXlsx(ctx, reply, { title, locale, columns, batches: batches() });
    },
  });
}
