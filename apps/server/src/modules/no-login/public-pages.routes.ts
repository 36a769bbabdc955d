import { idInputSchema } from '@shuzhi/contracts/crud';
import {
  publicSceneSchema,
  publicStatementSchema,
  sceneAddInputSchema,
  sceneCodeInputSchema,
  sceneEditInputSchema,
  scenePageInputSchema,
  scenePageSchema,
  sceneSchema,
  statementAddInputSchema,
  statementCodeInputSchema,
  statementEditInputSchema,
  statementPageInputSchema,
  statementPageSchema,
  statementSchema,
} from '@shuzhi/contracts/no-login-pages';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  addScene,
  deleteScene,
  editScene,
  publicScene,
  sceneBanner,
  scenePage,
  withdrawScene,
} from './scene.service.ts';
import {
  addStatement,
  deleteStatement,
  editStatement,
  publicStatement,
  statementPage,
  withdrawStatement,
} from './statement.service.ts';

/**
 * Public statements and custom scenes (issue 22 §2, docs/no-login.md): staff manage them under
 * `/api/sysStatement/*` and `/api/sysScene/*`; strangers open them with their signed code.
 */
export function publicPageRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['sysStatement'];
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysStatement/page',
    access: 'sysStatement:page',
    summary: 'Public statements: page (title contains), with state, views and url',
    tags,
    query: statementPageInputSchema,
    response: statementPageSchema,
    handler: ({ query, req }) => statementPage(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysStatement/add',
    access: 'sysStatement:add',
    summary: "Public statements: publish a form's filed records (filtered) or one record, chosen fields only",
    tags,
    body: statementAddInputSchema,
    response: statementSchema,
    handler: ({ body, req }) => addStatement(ctx, currentUser(req), body),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysStatement/edit',
    access: 'sysStatement:edit',
    summary: 'Public statements: change the title, intro, fields and filters of a live statement',
    tags,
    body: statementEditInputSchema,
    response: statementSchema,
    handler: ({ body, req }) => editStatement(ctx, currentUser(req), body),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysStatement/withdraw',
    access: 'sysStatement:withdraw',
    summary: 'Public statements: withdraw at once (the code is refused from the next opening)',
    tags,
    body: idInputSchema,
    response: z.null(),
    handler: ({ body, req }) => withdrawStatement(ctx, currentUser(req), body.id),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysStatement/delete',
    access: 'sysStatement:delete',
    summary: 'Public statements: delete (its code stops working)',
    tags,
    body: idInputSchema,
    response: z.null(),
    handler: ({ body, req }) => deleteStatement(ctx, currentUser(req), body.id),
  });
  sceneRoutes(app, ctx);
  publicRoutes(app, ctx);
}

function sceneRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['sysScene'];
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysScene/page',
    access: 'sysScene:page',
    summary: 'Custom scenes: page (title contains), with state, views and url',
    tags,
    query: scenePageInputSchema,
    response: scenePageSchema,
    handler: ({ query, req }) => scenePage(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysScene/add',
    access: 'sysScene:add',
    summary:
      'Custom scenes: publish (title, banner image, intro, entries: fill links, statements, addresses)',
    tags,
    body: sceneAddInputSchema,
    response: sceneSchema,
    handler: ({ body, req }) => addScene(ctx, currentUser(req), body),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysScene/edit',
    access: 'sysScene:edit',
    summary: 'Custom scenes: change a live scene',
    tags,
    body: sceneEditInputSchema,
    response: sceneSchema,
    handler: ({ body, req }) => editScene(ctx, currentUser(req), body),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysScene/withdraw',
    access: 'sysScene:withdraw',
    summary: 'Custom scenes: withdraw at once',
    tags,
    body: idInputSchema,
    response: z.null(),
    handler: ({ body, req }) => withdrawScene(ctx, currentUser(req), body.id),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysScene/delete',
    access: 'sysScene:delete',
    summary: 'Custom scenes: delete',
    tags,
    body: idInputSchema,
    response: z.null(),
    handler: ({ body, req }) => deleteScene(ctx, currentUser(req), body.id),
  });
}

function publicRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['noLogin'];
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/noLogin/statement',
    access: 'public',
    limit: 'captcha',
    summary: 'Login-free pages: a public statement by its code (chosen fields of filed records only)',
    tags,
    query: statementCodeInputSchema,
    response: publicStatementSchema,
    handler: ({ query, locale }) => publicStatement(ctx, query.loadCodedate, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/noLogin/scene',
    access: 'public',
    limit: 'captcha',
    summary: 'Login-free pages: a custom scene by its code, entries with their addresses while they are live',
    tags,
    query: sceneCodeInputSchema,
    response: publicSceneSchema,
    handler: ({ query }) => publicScene(ctx, query.id),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/noLogin/sceneBanner',
    access: 'public',
    limit: 'captcha',
    raw: true,
    summary: "Login-free pages: a custom scene's banner image",
    tags,
    query: sceneCodeInputSchema,
    response: z.any(),
    handler: ({ query, reply }) => sceneBanner(ctx, query.id, reply),
  });
}
