import { addResultSchema, idParamsSchema } from '@shuzhi/contracts/crud';
import {
  loadKindSchema,
  queryAddInputSchema,
  queryDataSchema,
  queryInfoSchema,
  queryRunInputSchema,
  queryUpdateInputSchema,
} from '@shuzhi/contracts/diy-query';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { failure } from '../../platform/http/envelope.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { addQuery, loadKind, openQuery, queryInfo, updateQuery } from './query.service.ts';
import { exportQuery } from './query-export.ts';
import { QueryFieldErrors } from './query-plan.ts';
import { runPage } from './query-run.ts';

const ID_PATH = '(^\\d+$)';

/** Runs a call and answers Q1002 with the config's fields at fault in the envelope's `errors`. */
async function withQueryErrors<T>(
  reply: FastifyReply,
  locale: Locale,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof QueryFieldErrors)) throw error;
    return reply.status(200).send(failure('Q1002', businessMessage('Q1002', locale), error.errors));
  }
}

/**
 * Query reports (issue 21 §1, docs/query-reports.md): `/api/diyQuery/add|update` in 表单管理 (diyTable:add /
 * update, and the caller administers every source form), `/api/diyQuery/{id}/config|data|export` for the report
 * page (the report's viewers and admins; rows from the sources' records in the caller's reach), and
 * `/api/diyLoad/{id}/kind` for `/diyLoad/index/loadTable`, which shows roll-ups and query reports.
 */
export function diyQueryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyQuery/add',
    access: 'diyTable:add',
    summary:
      'Query reports: a new query report (type 3) over source forms the caller administers; answers its id. ' +
      'Fields, formulas or sorts that do not fit the sources: Q1002 with field errors',
    tags: ['diyQuery'],
    body: queryAddInputSchema,
    response: addResultSchema,
    handler: ({ body, req, reply, locale }) =>
      withQueryErrors(reply, locale, () => addQuery(ctx, me(req), body, locale)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyQuery/update',
    access: 'diyTable:update',
    summary:
      'Query reports: change a query report’s title, category, owner, remark or config (checked as on add)',
    tags: ['diyQuery'],
    body: queryUpdateInputSchema,
    response: z.null(),
    handler: ({ body, req, reply, locale }) =>
      withQueryErrors(reply, locale, async () => {
        await updateQuery(ctx, me(req), body, locale);
        return null;
      }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyQuery/:id${ID_PATH}/config`,
    access: 'loggedIn',
    summary: 'Query reports: the config, the sources, the shown columns and the choices of the parameters',
    tags: ['diyQuery'],
    params: idParamsSchema,
    response: queryInfoSchema,
    handler: ({ params, req, reply, locale }) =>
      withQueryErrors(reply, locale, () => queryInfo(ctx, me(req), params.id, locale)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyQuery/:id${ID_PATH}/data`,
    access: 'loggedIn',
    summary: 'Query reports: a page of rows (groups with subtotals) and the grand total for the parameters',
    tags: ['diyQuery'],
    params: idParamsSchema,
    body: queryRunInputSchema,
    response: queryDataSchema,
    handler: ({ params, body, req, reply, locale }) =>
      withQueryErrors(reply, locale, async () => {
        const { plan } = await openQuery(ctx, me(req), params.id, locale);
        return runPage(ctx, plan, body.params, body.page, body.pageSize, locale);
      }),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyQuery/:id${ID_PATH}/export`,
    access: 'loggedIn',
    raw: true,
    summary: 'Query reports: every row for the parameters as an .xlsx stream (subtotals and total included)',
    tags: ['diyQuery'],
    params: idParamsSchema,
    body: queryRunInputSchema.pick({ params: true }),
    response: z.unknown(),
    handler: ({ params, body, req, reply, locale }) =>
      withQueryErrors(reply, locale, () => exportQuery(ctx, me(req), params.id, body, locale, reply)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyLoad/:id${ID_PATH}/kind`,
    access: 'loggedIn',
    summary: 'The report type of an item shown at /diyLoad/index/loadTable (2 roll-up, 3 query report)',
    tags: ['diyLoad'],
    params: idParamsSchema,
    response: loadKindSchema,
    handler: ({ params, req }) => loadKind(ctx, me(req), params.id),
  });
}
