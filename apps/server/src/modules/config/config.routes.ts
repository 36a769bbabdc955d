import { configItemSchema } from '@shuzhi/contracts/config';
import { configDetailQuerySchema } from '@shuzhi/contracts/sys-config';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { configDetail, configGroups, listConfigs } from './config.service.ts';

const tags = ['sysConfig'];

export function configRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConfig/list',
    access: 'loggedIn',
    summary: 'Config items (all with sysConfig:list, otherwise the ones the shell reads)',
    tags,
    response: z.array(configItemSchema),
    handler: ({ ctx, req }) => listConfigs(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConfig/detail',
    access: 'sysConfig:detail',
    summary: 'One config item',
    tags,
    query: configDetailQuerySchema,
    response: configItemSchema,
    handler: ({ ctx, query }) => configDetail(ctx, query.Id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConfig/groupList',
    access: 'sysConfig:list',
    summary: 'Config group codes',
    tags,
    response: z.array(z.string()),
    handler: ({ ctx }) => configGroups(ctx),
  });
}
