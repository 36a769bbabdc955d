import { addResultSchema } from '@shuzhi/contracts/crud';
import { prefillQuerySchema, prefillResultSchema, zeroReportInputSchema } from '@shuzhi/contracts/diy-period';
import {
  designVersionQuerySchema,
  formDesignForFillingSchema,
  formIdQuerySchema,
  recordDeleteInputSchema,
  recordHistoryQuerySchema,
  recordHistorySchema,
  recordPageInputSchema,
  recordSaveInputSchema,
  recordSchema,
} from '@shuzhi/contracts/diy-table';
import { idSchema, pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { ValidationError } from '../../platform/errors/app-error.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { recordHistory } from './diy-record-history.ts';
import { prefill } from './diy-record-prefill.ts';
import { designForFilling, recordDetail, recordList, recordPage } from './diy-record-query.ts';
import { deleteRecords, saveRecord, zeroReport } from './diy-record-save.ts';
import { diyReviewRoutes } from './diy-review.routes.ts';

const TAGS = ['diyData'];
const NULL_RESULT = z.null();
const BASE = '/api/diyData/:tableId(^\\d+$)';
const tableParams = z.object({ tableId: idSchema });
const recordParams = z.object({ tableId: idSchema, id: idSchema });

/** Page filters from a query string: no `filters` (POST them), `mine` as text. */
const pageQuerySchema = recordPageInputSchema.omit({ filters: true, mine: true }).extend({
  mine: z
    .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
    .optional()
    .transform((v) => v === true || v === 'true' || v === '1'),
});

function missingId(part: 'body' | 'querystring'): never {
  const parsed = z.object({ id: idSchema }).safeParse({});
  throw new ValidationError(parsed.success ? [] : parsed.error.issues, part);
}

/**
 * `/api/diyData/{tableId}/…`: the records of a form through the generic CRUD routes of SPEC §7. Every route
 * is open to signed-in users and asks the form's `formAuth` (myAuth) what the caller may do; a form that is
 * not theirs answers F1000, a missing right F1001, an unverified form password F1007.
 */
export function diyDataRoutes(app: FastifyInstance, ctx: AppContext): void {
  diyReviewRoutes(app, ctx);
  recordReadRoutes(app, ctx);
  recordWriteRoutes(app, ctx);
}

const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

/** Reading records: page, list, detail, the design to fill, a record's history. */
function recordReadRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/page`,
    access: 'loggedIn',
    summary: 'Records: a page (keyword over text fields, filters by field, sort by any field column)',
    tags: TAGS,
    params: tableParams,
    body: recordPageInputSchema,
    response: pageResultSchema(recordSchema),
    handler: ({ params, body, req, locale }) => recordPage(ctx, me(req), params.tableId, body, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/page`,
    access: 'loggedIn',
    summary: 'Records: a page (query string; filters by field only through POST)',
    tags: TAGS,
    params: tableParams,
    query: pageQuerySchema,
    response: pageResultSchema(recordSchema),
    handler: ({ params, query, req, locale }) => recordPage(ctx, me(req), params.tableId, query, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/list`,
    access: 'loggedIn',
    summary: 'Records: the newest records the caller sees (at most 1000)',
    tags: TAGS,
    params: tableParams,
    query: pageQuerySchema.partial(),
    response: z.array(recordSchema),
    handler: ({ params, query, req, locale }) => recordList(ctx, me(req), params.tableId, query, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/detail`,
    access: 'loggedIn',
    summary: 'Records: one record (?id= or ?Id=)',
    tags: TAGS,
    params: tableParams,
    query: formIdQuerySchema,
    response: recordSchema,
    handler: ({ params, query, req, locale }) =>
      recordDetail(ctx, me(req), params.tableId, query.id ?? query.Id ?? missingId('querystring'), locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/:id(^\\d+$)`,
    access: 'loggedIn',
    summary: 'Records: one record by path',
    tags: TAGS,
    params: recordParams,
    response: recordSchema,
    handler: ({ params, req, locale }) => recordDetail(ctx, me(req), params.tableId, params.id, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/design`,
    access: 'loggedIn',
    summary: 'Records: the form item with myAuth and the design of a version (default the published one)',
    tags: TAGS,
    params: tableParams,
    query: designVersionQuerySchema,
    response: formDesignForFillingSchema,
    handler: ({ params, query, req, locale }) =>
      designForFilling(ctx, me(req), params.tableId, query.version, locale, query.periodId),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/history`,
    access: 'loggedIn',
    summary: 'Records: every step of a record with field-level before/after, oldest first',
    tags: TAGS,
    params: tableParams,
    query: recordHistoryQuerySchema,
    response: z.array(recordHistorySchema),
    handler: ({ params, query, req }) => recordHistory(ctx, me(req), params.tableId, query.id),
  });
}

/** Writing records: add, update, the values a new record may take over (prefill), zero report, delete. */
function recordWriteRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/add`,
    access: 'loggedIn',
    summary: 'Records: file a new record (draft, or submit: true); answers its id; field errors by path',
    tags: TAGS,
    params: tableParams,
    body: recordSaveInputSchema,
    response: addResultSchema,
    handler: ({ params, body, req, reply, locale }) =>
      withFieldErrors(reply, () =>
        saveRecord(
          ctx,
          me(req),
          params.tableId,
          { periodId: body.periodId, values: body.values, submit: body.submit },
          locale,
        ),
      ),
  });
  for (const url of ['update', 'put'] as const) {
    defineRoute(app, ctx, {
      method: 'PUT',
      url: `${BASE}/${url}`,
      access: 'loggedIn',
      summary: 'Records: change a record (submit: true files it); field errors by path',
      tags: TAGS,
      params: tableParams,
      body: recordSaveInputSchema,
      response: NULL_RESULT,
      handler: ({ params, body, req, reply, locale }) =>
        withFieldErrors(reply, async () => {
          const id = body.id ?? missingId('body');
          await saveRecord(
            ctx,
            me(req),
            params.tableId,
            { id, values: body.values, submit: body.submit },
            locale,
          );
          return null;
        }),
    });
  }
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/prefill`,
    access: 'loggedIn',
    summary:
      'Records: values of the caller’s org’s latest record of an earlier period, to review (null: none)',
    tags: TAGS,
    params: tableParams,
    query: prefillQuerySchema,
    response: prefillResultSchema,
    handler: ({ params, query, req }) => prefill(ctx, me(req), params.tableId, query.periodId),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/zeroReport`,
    access: 'loggedIn',
    summary:
      'Records: file a zero report (nothing to report) for the caller’s org in a period; answers its id',
    tags: TAGS,
    params: tableParams,
    body: zeroReportInputSchema,
    response: addResultSchema,
    handler: ({ params, body, req }) => zeroReport(ctx, me(req), params.tableId, body),
  });
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: `${BASE}/delete`,
    access: 'loggedIn',
    summary: 'Records: delete (soft) one (id in the body or the query) or several (ids)',
    tags: TAGS,
    params: tableParams,
    query: formIdQuerySchema,
    body: recordDeleteInputSchema.nullish(),
    response: NULL_RESULT,
    handler: async ({ params, body, query, req }) => {
      const ids = body?.ids ?? [body?.id ?? query.id ?? query.Id ?? missingId('body')];
      await deleteRecords(ctx, me(req), params.tableId, ids);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: `${BASE}/:id(^\\d+$)`,
    access: 'loggedIn',
    summary: 'Records: delete (soft) by path',
    tags: TAGS,
    params: recordParams,
    response: NULL_RESULT,
    handler: async ({ params, req }) => {
      await deleteRecords(ctx, me(req), params.tableId, [params.id]);
      return null;
    },
  });
}
