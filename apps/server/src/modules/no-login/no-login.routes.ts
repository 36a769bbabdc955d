import { idInputSchema } from '@shuzhi/contracts/crud';
import { idSchema } from '@shuzhi/contracts/envelope';
import {
  noLoginAddInputSchema,
  noLoginAddResultSchema,
  noLoginDesignSchema,
  noLoginLinkSchema,
  noLoginListInputSchema,
  noLoginPageInputSchema,
  noLoginPageSchema,
  noLoginQrInputSchema,
  noLoginRecordPageInputSchema,
  noLoginRecordPageSchema,
  noLoginRecordSchema,
  noLoginSaveInputSchema,
  noLoginSheetInputSchema,
  noLoginSheetItemSchema,
  noLoginTokenInputSchema,
  noLoginTokenSchema,
  noLoginUsesInputSchema,
  noLoginUsesPageSchema,
} from '@shuzhi/contracts/no-login';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  addByNoLogin,
  designByNoLogin,
  detailByNoLogin,
  listByNoLogin,
  pageByNoLogin,
  updateByNoLogin,
} from './no-login-data.service.ts';
import { addLink, linkPage, linkQr, linkSheet, revokeLink, usePage } from './no-login-links.service.ts';
import { callerOf, exchangeCode } from './no-login-scope.ts';
import { publicPageRoutes } from './public-pages.routes.ts';

const BASE = '/api/sysNoLoginLink';
const DATA = '/api/diyData';
/** Largest body a login-free write takes: a form's values, not files. */
export const NO_LOGIN_BODY_LIMIT = 256 * 1024;

const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

/** Login-free links (issue 22 §1, docs/no-login.md): staff publish and print; strangers use them. */
export function noLoginRoutes(app: FastifyInstance, ctx: AppContext): void {
  staffRoutes(app, ctx);
  publicRoutes(app, ctx);
  publicPageRoutes(app, ctx);
}

function staffRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['sysNoLoginLink'];
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/page`,
    access: 'sysNoLoginLink:page',
    summary: 'Login-free links: page (title contains, form), with their state and use count',
    tags,
    query: noLoginPageInputSchema,
    response: noLoginPageSchema,
    handler: ({ query, req }) => linkPage(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/add`,
    access: 'sysNoLoginLink:add',
    summary: 'Login-free links: publish a signed, expiring, scoped link for a form or a record',
    tags,
    body: noLoginAddInputSchema,
    response: noLoginLinkSchema,
    handler: ({ body, req }) => addLink(ctx, currentUser(req), body),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/revoke`,
    access: 'sysNoLoginLink:revoke',
    summary: 'Login-free links: revoke at once (the code and every token it gave are refused)',
    tags,
    body: idInputSchema,
    response: z.null(),
    handler: ({ body, req }) => revokeLink(ctx, currentUser(req), body.id),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/uses`,
    access: 'sysNoLoginLink:page',
    summary: 'Login-free links: the use log of a link (time, IP, user agent, what was done), newest first',
    tags,
    query: noLoginUsesInputSchema,
    response: noLoginUsesPageSchema,
    handler: ({ query, req }) => usePage(ctx, currentUser(req), query),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/qrcode`,
    access: 'sysNoLoginLink:page',
    raw: true,
    summary: "Login-free links: the link's QR code as PNG or SVG",
    tags,
    query: noLoginQrInputSchema,
    response: z.any(),
    handler: async ({ query, req, reply }) => {
      const image = await linkQr(ctx, currentUser(req), query.id, query.format, originOf(req));
      reply.header('content-type', query.format === 'png' ? 'image/png' : 'image/svg+xml; charset=utf-8');
      reply.header('cache-control', 'no-store');
      return reply.send(image);
    },
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/sheet`,
    access: 'sysNoLoginLink:page',
    summary:
      'Login-free links: a printable sheet of many (ids comma-separated), each with its QR code as SVG',
    tags,
    query: noLoginSheetInputSchema,
    response: z.array(noLoginSheetItemSchema),
    handler: ({ query, req }) => linkSheet(ctx, currentUser(req), query.ids, originOf(req)),
  });
}

function publicRoutes(app: FastifyInstance, ctx: AppContext): void {
  const tags = ['noLogin'];
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/noLogin/token',
    access: 'public',
    limit: 'captcha',
    bodyLimit: 4096,
    summary: "Login-free pages: a link's code for a short-lived token limited to the link's scope",
    tags,
    body: noLoginTokenInputSchema,
    response: noLoginTokenSchema,
    handler: ({ body, req }) => exchangeCode(ctx, body.code, callerOf(req)),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${DATA}/designByNoLogin`,
    access: 'public',
    limit: 'captcha',
    summary: 'Login-free pages: the form a token may view or fill (header X-NoLogin-Token)',
    tags,
    query: noLoginListInputSchema,
    response: noLoginDesignSchema,
    handler: ({ query, req }) => designByNoLogin(ctx, req, query.tableId),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${DATA}/pageByNoLogin`,
    access: 'public',
    limit: 'captcha',
    bodyLimit: 4096,
    summary: "Login-free pages: a page of a view link's records, public view (header X-NoLogin-Token)",
    tags,
    body: noLoginRecordPageInputSchema,
    response: noLoginRecordPageSchema,
    handler: ({ body, req, locale }) => pageByNoLogin(ctx, req, body, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${DATA}/listByNoLogin`,
    access: 'public',
    limit: 'captcha',
    summary: "Login-free pages: a view link's records (at most 1000), public view (header X-NoLogin-Token)",
    tags,
    query: noLoginListInputSchema,
    response: z.array(noLoginRecordSchema),
    handler: ({ query, req, locale }) => listByNoLogin(ctx, req, query.tableId, locale),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${DATA}/detailByNoLogin/:tableId/:id`,
    access: 'public',
    limit: 'captcha',
    summary: "Login-free pages: one record within the token's scope, public view (header X-NoLogin-Token)",
    tags,
    params: z.object({ tableId: idSchema, id: idSchema }),
    response: noLoginRecordSchema,
    handler: ({ params, req, locale }) => detailByNoLogin(ctx, req, params.tableId, params.id, locale),
  });
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${DATA}/addByNoLogin`,
    access: 'public',
    limit: 'login',
    bodyLimit: NO_LOGIN_BODY_LIMIT,
    summary: 'Login-free pages: file a record through a fill link, once per token (header X-NoLogin-Token)',
    tags,
    body: noLoginSaveInputSchema,
    response: noLoginAddResultSchema,
    handler: ({ body, req, reply, locale }) =>
      withFieldErrors(reply, () => addByNoLogin(ctx, req, body, locale)),
  });
  defineRoute(app, ctx, {
    method: 'PUT',
    url: `${DATA}/updateDataByNoLogin/:id`,
    access: 'public',
    limit: 'login',
    bodyLimit: NO_LOGIN_BODY_LIMIT,
    summary: "Login-free pages: fill in a record link's record, once (header X-NoLogin-Token)",
    tags,
    params: z.object({ id: idSchema }),
    body: noLoginSaveInputSchema,
    response: z.null(),
    handler: ({ params, body, req, reply, locale }) =>
      withFieldErrors(reply, () => updateByNoLogin(ctx, req, params.id, body, locale)),
  });
}
