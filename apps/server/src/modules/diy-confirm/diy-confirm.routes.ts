import {
  rowConfirmAnswerInputSchema,
  rowConfirmCreateInputSchema,
  rowConfirmCreateResultSchema,
  rowConfirmDetailSchema,
  rowConfirmItemSchema,
  rowConfirmListQuerySchema,
} from '@shuzhi/contracts/diy-confirm';
import { idSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { answerConfirm, confirmDetail, createConfirm, listConfirms } from './diy-confirm.service.ts';

/**
 * Row confirmation (issue 6 §6). Staff: `POST /api/diyConfirm/create`, `GET /api/diyConfirm/list` (signed in;
 * the form's `formAuth` and the record's reach decide). The subject, without signing in:
 * `GET /api/diyTable/detailByNoLogin/{tableId}/{code}` and `PUT /api/diyTable/updateDataByNoLogin/{recordId}`,
 * which accept only a valid code of that row, and are rate-limited per address.
 */
export function diyConfirmRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyConfirm/create',
    access: 'loggedIn',
    summary:
      'Row confirmation: a signed, expiring link for the subject of a record (its filler or reviewers)',
    tags: ['diyConfirm'],
    body: rowConfirmCreateInputSchema,
    response: rowConfirmCreateResultSchema,
    handler: ({ body, req }) => createConfirm(ctx, me(req), body),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyConfirm/list',
    access: 'loggedIn',
    summary:
      'Row confirmation: the links sent for a record with their state (open, confirmed, disputed, expired)',
    tags: ['diyConfirm'],
    query: rowConfirmListQuerySchema,
    response: z.array(rowConfirmItemSchema),
    handler: ({ query, req }) => listConfirms(ctx, me(req), query.tableId, query.recordId),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/detailByNoLogin/:a/:b',
    access: 'public',
    limit: 'captcha',
    summary:
      'Row confirmation (no login): the one record a confirmation code is for; a = form id, b = the code',
    tags: ['diyConfirm'],
    params: z.object({ a: idSchema, b: z.string().min(1).max(512) }),
    response: rowConfirmDetailSchema,
    handler: ({ params }) => confirmDetail(ctx, params.a, params.b),
  });
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/diyTable/updateDataByNoLogin/:id',
    access: 'public',
    limit: 'login',
    summary:
      'Row confirmation (no login): confirm, or dispute with a comment, once; the values stay unchanged',
    tags: ['diyConfirm'],
    params: z.object({ id: idSchema }),
    body: rowConfirmAnswerInputSchema,
    response: z.null(),
    handler: ({ params, body, req, reply, locale }) =>
      withFieldErrors(reply, async () => {
        await answerConfirm(ctx, params.id, body, req.ip, locale);
        return null;
      }),
  });
}
