import { menuNodeSchema } from '@shuzhi/contracts/menu';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { loginMenuTreeResult, ownButtonPermissions } from './menu.service.ts';

const tags = ['sysMenu'];

export function menuRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysMenu/loginMenuTree',
    access: 'loggedIn',
    summary: "The signed-in user's directories and menus (no buttons)",
    tags,
    response: z.array(menuNodeSchema),
    handler: ({ ctx, req }) => loginMenuTreeResult(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysMenu/ownBtnPermList',
    access: 'loggedIn',
    summary: "The signed-in user's button permissions",
    tags,
    response: z.array(z.string()),
    handler: ({ req }) => ownButtonPermissions(currentUser(req)),
  });
}
