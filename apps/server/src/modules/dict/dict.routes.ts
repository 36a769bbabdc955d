import { allDictListSchema, dictDataItemSchema, dictDataListQuerySchema } from '@shuzhi/contracts/dict';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { allDictList, dictDataList } from './dict.service.ts';

const tags = ['sysDictType'];

export function dictRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysDictType/allDictList',
    access: 'loggedIn',
    summary: 'Every enabled dictionary with its enabled items, keyed by type code',
    tags,
    response: allDictListSchema,
    handler: ({ ctx }) => allDictList(ctx),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysDictType/dataList',
    access: 'loggedIn',
    summary: 'Enabled items of one dictionary type',
    tags,
    query: dictDataListQuerySchema,
    response: z.array(dictDataItemSchema),
    handler: ({ ctx, query }) => dictDataList(ctx, query.Code),
  });
}
