import {
  serverBaseSchema,
  serverDiskSchema,
  serverInfoSchema,
  serverUsedSchema,
} from '@shuzhi/contracts/server';
import type { FastifyInstance } from 'fastify';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { serverInfo } from './server.service.ts';
import { serverBase, serverDisk, serverUsed } from './server.wire.ts';

const tags = ['sysServer'];

export function serverRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysServer/info',
    access: 'sysServer:detail',
    summary: 'Host, process, database and cache figures (CPU sampled over 200 ms)',
    tags,
    response: serverInfoSchema,
    handler: ({ ctx, req }) => serverInfo(ctx, currentUser(req)),
  });

  // The family's 服务监控 page: the same figures in its three calls and shapes (docs/wire.md).
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysServer/serverBase',
    access: 'sysServer:detail',
    summary: 'Host basics as the family reads them (host, OS, cores, uptime, addresses, runtime)',
    tags,
    response: serverBaseSchema,
    handler: ({ ctx, req, locale }) => serverBase(ctx, currentUser(req), locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysServer/serverUsed',
    access: 'sysServer:detail',
    summary: 'Memory and CPU use as the family reads them (CPU sampled over 200 ms)',
    tags,
    response: serverUsedSchema,
    handler: ({ req, locale }) => serverUsed(currentUser(req), locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysServer/serverDisk',
    access: 'sysServer:detail',
    summary: 'The data directory’s disk as the family reads it (sizes in GB)',
    tags,
    response: serverDiskSchema,
    handler: ({ ctx, req }) => serverDisk(ctx, currentUser(req)),
  });
}
