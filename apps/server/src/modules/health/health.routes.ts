import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { checkHealth } from './health.service.ts';

const UP_DOWN = z.enum(['up', 'down']);
const healthSchema = z.object({ status: z.literal('ok'), database: UP_DOWN, cache: UP_DOWN });
const readySchema = z.object({ status: z.enum(['ok', 'unavailable']), database: UP_DOWN, cache: UP_DOWN });

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/health',
    access: 'public',
    raw: true,
    summary: 'Liveness for load balancers: 200 while the process serves, with the database and cache status',
    tags: ['health'],
    response: healthSchema,
    handler: async () => ({ status: 'ok' as const, ...(await checkHealth(ctx)) }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/ready',
    access: 'public',
    raw: true,
    summary: 'Readiness for load balancers: 503 while the database or Redis cannot be reached',
    tags: ['health'],
    response: readySchema,
    handler: async ({ reply }) => {
      const health = await checkHealth(ctx);
      const ready = health.database === 'up' && health.cache === 'up';
      reply.status(ready ? 200 : 503);
      return { status: ready ? ('ok' as const) : ('unavailable' as const), ...health };
    },
  });
}
