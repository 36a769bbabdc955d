import { changePwdInputSchema } from '@shuzhi/contracts/password';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { changePassword } from './user.service.ts';
import { userAdminRoutes } from './user-admin.routes.ts';

export function userRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/changePwd',
    access: 'loggedIn',
    summary: 'Change the own password (both SM2-encrypted)',
    tags: ['sysUser'],
    body: changePwdInputSchema,
    response: z.literal(true),
    handler: ({ ctx, req, body }) => changePassword(ctx, currentUser(req), body),
  });
  userAdminRoutes(app, ctx);
}
