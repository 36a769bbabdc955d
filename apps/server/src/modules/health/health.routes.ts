import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';

export function healthRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/health',
    access: 'public',
    raw: true,
    summary: 'Liveness for load balancers',
    tags: ['health'],
    response: z.object({ status: z.literal('ok') }),
    handler: () => ({ status: 'ok' as const }),
  });
}
