import {
  recycleActionInputSchema,
  recycleItemSchema,
  recyclePageInputSchema,
} from '@shuzhi/contracts/diy-table';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { purgeItems, recyclePage, restoreItems } from './diy-recycle.service.ts';

const tags = ['diyRecycle'];

/** `/api/diyRecycle/…`: the recycle bin of report forms (deleted records and forms). */
export function diyRecycleRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyRecycle/page',
    access: 'diyRecycle:page',
    summary: 'Recycle bin: deleted records and forms of the forms the caller administers, newest first',
    tags,
    body: recyclePageInputSchema,
    response: pageResultSchema(recycleItemSchema),
    handler: ({ body, user, locale }) => recyclePage(ctx, user as AuthUser, body, locale),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyRecycle/restore',
    access: 'diyRecycle:restore',
    summary: 'Recycle bin: restore records (F1015 while their form is deleted) and forms; all or nothing',
    tags,
    body: recycleActionInputSchema,
    response: z.null(),
    handler: async ({ body, user }) => {
      await restoreItems(ctx, user as AuthUser, body);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyRecycle/purge',
    access: 'diyRecycle:purge',
    summary: 'Recycle bin: remove items for good after the operation password; all or nothing',
    tags,
    body: recycleActionInputSchema,
    response: z.null(),
    handler: async ({ body, user }) => {
      await purgeItems(ctx, user as AuthUser, body);
      return null;
    },
  });
}
