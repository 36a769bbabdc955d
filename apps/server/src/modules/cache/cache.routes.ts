import {
  cacheKeyInputSchema,
  cacheKeyListInputSchema,
  cacheKeyListSchema,
  cachePrefixInputSchema,
  cacheValueSchema,
} from '@shuzhi/contracts/server';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { deleteByPrefix, deleteKey, keyValue, listKeys } from './cache.service.ts';

const tags = ['sysCache'];

export function cacheRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysCache/keyList',
    access: 'sysCache:list',
    summary: 'Keys of the application cache (optionally those starting with prefix), at most 5 000',
    tags,
    query: cacheKeyListInputSchema,
    response: cacheKeyListSchema,
    handler: ({ ctx, req, query }) => listKeys(ctx, currentUser(req), query.prefix ?? ''),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysCache/value',
    access: 'sysCache:detail',
    summary: 'One key: type, seconds to live and value (secrets masked); null when it does not exist',
    tags,
    query: cacheKeyInputSchema,
    response: cacheValueSchema.nullable(),
    handler: ({ ctx, req, query }) => keyValue(ctx, currentUser(req), query.key),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysCache/delete',
    access: 'sysCache:delete',
    summary: 'Deletes one key; answers how many were removed (0 or 1)',
    tags,
    body: cacheKeyInputSchema,
    response: z.number(),
    handler: ({ ctx, req, body }) => deleteKey(ctx, currentUser(req), body.key),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysCache/deleteByPrefix',
    access: 'sysCache:delete',
    summary: 'Deletes every key starting with prefix (at least 2 characters); answers how many',
    tags,
    body: cachePrefixInputSchema,
    response: z.number(),
    handler: ({ ctx, req, body }) => deleteByPrefix(ctx, currentUser(req), body.prefix),
  });
}
