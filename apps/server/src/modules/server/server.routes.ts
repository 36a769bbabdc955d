import { serverInfoSchema } from '@shuzhi/contracts/server';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { serverInfo } from './server.service.ts';

export function serverRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysServer/info',
    access: 'sysServer:detail',
    summary: 'Host, process, database and cache figures (CPU sampled over 200 ms)',
    tags: ['sysServer'],
    response: serverInfoSchema,
    handler: ({ ctx, req }) => serverInfo(ctx, currentUser(req)),
  });
}
