import { currentProfileSchema, FAVICON_PATH } from '@shuzhi/contracts/sys-profile';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { currentProfile, faviconSvg } from './profile.service.ts';

const tags = ['sysProfile'];

export function profileRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysProfile/current',
    access: 'public',
    summary: 'The regional profile of this deployment and the system-info config',
    tags,
    response: currentProfileSchema,
    handler: ({ ctx }) => currentProfile(ctx),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: FAVICON_PATH,
    access: 'public',
    raw: true,
    summary: "The profile's favicon (SVG), or a redirect to the one the profile names",
    tags,
    response: z.string(),
    handler: ({ ctx, reply }) => {
      const named = ctx.config.profile.favicon;
      if (named) return reply.redirect(named, 302);
      reply.type('image/svg+xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
      return faviconSvg(ctx);
    },
  });
}
