import { addResultSchema } from '@shuzhi/contracts/crud';
import {
  periodAddInputSchema,
  periodCloseInputSchema,
  periodListQuerySchema,
  periodLogQuerySchema,
  periodLogSchema,
  periodPageInputSchema,
  periodPageRowSchema,
  periodReopenInputSchema,
  periodRowSchema,
  periodUpdateInputSchema,
} from '@shuzhi/contracts/diy-period';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { periodList, periodLog, periodPage } from './period-read.ts';
import { addPeriod, closePeriod, reopenPeriod, updatePeriod } from './period-staff.ts';

const TAGS = ['diyPeriod'];

/**
 * `/api/diyPeriod/…`: reporting periods (issue 6 §1, docs/periods.md). The list is for anyone who may query
 * the form; the page and every staff step need the `diyPeriod:*` button and administering the form (its
 * owner org in the caller's data scope, F1000 otherwise).
 */
export function diyPeriodRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyPeriod/list',
    access: 'loggedIn',
    summary: 'Periods: the periods of a form, newest first (the current one is made when due)',
    tags: TAGS,
    query: periodListQuerySchema,
    response: z.array(periodRowSchema),
    handler: ({ query, req, locale }) => periodList(ctx, me(req), query.tableId, locale),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyPeriod/page',
    access: 'diyPeriod:page',
    summary: 'Periods: a page of the periods of the periodic forms the caller administers',
    tags: TAGS,
    body: periodPageInputSchema,
    response: pageResultSchema(periodPageRowSchema),
    handler: ({ body, req, locale }) => periodPage(ctx, me(req), body, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyPeriod/log',
    access: 'diyPeriod:page',
    summary: 'Periods: the logged steps of a period (create, update, close, reopen), newest first',
    tags: TAGS,
    query: periodLogQuerySchema,
    response: z.array(periodLogSchema),
    handler: ({ query, req }) => periodLog(ctx, me(req), query.id),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyPeriod/add',
    access: 'diyPeriod:add',
    summary: 'Periods: add a custom window (forms of kind custom; F1026 when it overlaps another)',
    tags: TAGS,
    body: periodAddInputSchema,
    response: addResultSchema,
    handler: ({ body, req }) => addPeriod(ctx, me(req), body),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyPeriod/update',
    access: 'diyPeriod:update',
    summary: 'Periods: change the name, due date or grace window of a period (logged)',
    tags: TAGS,
    body: periodUpdateInputSchema,
    response: z.null(),
    handler: ({ body, req, reply, locale }) =>
      withFieldErrors(reply, async () => {
        await updatePeriod(ctx, me(req), body, locale);
        return null;
      }),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyPeriod/close',
    access: 'diyPeriod:close',
    summary: 'Periods: close (lock) a period: no record changes until it is reopened (logged)',
    tags: TAGS,
    body: periodCloseInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await closePeriod(ctx, me(req), body);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyPeriod/reopen',
    access: 'diyPeriod:reopen',
    summary: 'Periods: reopen a period with a reason, optionally until a day past its dates (logged)',
    tags: TAGS,
    body: periodReopenInputSchema,
    response: z.null(),
    handler: ({ body, req, reply, locale }) =>
      withFieldErrors(reply, async () => {
        await reopenPeriod(ctx, me(req), body, locale);
        return null;
      }),
  });
}
