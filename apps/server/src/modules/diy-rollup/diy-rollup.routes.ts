import { addResultSchema, idParamsSchema } from '@shuzhi/contracts/crud';
import {
  rollupAddInputSchema,
  rollupDataInputSchema,
  rollupDataSchema,
  rollupInfoSchema,
  rollupUpdateInputSchema,
} from '@shuzhi/contracts/diy-rollup';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { failure } from '../../platform/http/envelope.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { addRollup, RollupFieldErrors, rollupInfo, updateRollup } from './rollup.service.ts';
import { rollupData } from './rollup-data.ts';

const ID_PATH = '(^\\d+$)';

/** Runs a write and answers F1041 with the fields at fault in the envelope's `errors`. */
async function withRollupErrors<T>(
  reply: FastifyReply,
  locale: Locale,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof RollupFieldErrors)) throw error;
    return reply.status(200).send(failure('F1041', businessMessage('F1041', locale), error.errors));
  }
}

/**
 * Roll-up reports (issue 6 §2, docs/rollups.md): `/api/diyTable/addRollup|updateRollup` in 表单管理
 * (diyTable:add / update, and the caller administers the source form), `/api/diyLoad/{id}/config|data` for
 * the roll-up page (the roll-up's viewers and admins; figures from the source records in the caller's reach).
 */
export function diyRollupRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/addRollup',
    access: 'diyTable:add',
    summary:
      'Roll-ups: a new roll-up report (type 2) over a source form the caller administers; answers its id. ' +
      'Fields that are missing or not numbers: F1041 with field errors',
    tags: ['diyTable'],
    body: rollupAddInputSchema,
    response: addResultSchema,
    handler: ({ body, req, reply, locale }) =>
      withRollupErrors(reply, locale, () => addRollup(ctx, me(req), body, locale)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/updateRollup',
    access: 'diyTable:update',
    summary: 'Roll-ups: change a roll-up’s title, category, owner, remark or config (checked as on add)',
    tags: ['diyTable'],
    body: rollupUpdateInputSchema,
    response: z.null(),
    handler: ({ body, req, reply, locale }) =>
      withRollupErrors(reply, locale, async () => {
        await updateRollup(ctx, me(req), body, locale);
        return null;
      }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyLoad/:id${ID_PATH}/config`,
    access: 'loggedIn',
    summary: 'Roll-ups: the roll-up’s config, its source form and whether it is periodic',
    tags: ['diyLoad'],
    params: idParamsSchema,
    response: rollupInfoSchema,
    handler: ({ params, req }) => rollupInfo(ctx, me(req), params.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyLoad/:id${ID_PATH}/data`,
    access: 'loggedIn',
    summary:
      'Roll-ups: the figures of a period (default the latest started one) by org level or region, ' +
      'drilled into `parent`, with missing units and, with compare, last period and same period last year',
    tags: ['diyLoad'],
    params: idParamsSchema,
    body: rollupDataInputSchema,
    response: rollupDataSchema,
    handler: ({ params, body, req, locale }) => rollupData(ctx, me(req), params.id, body, locale),
  });
}
