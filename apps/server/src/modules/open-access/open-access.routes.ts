import { detailQuerySchema, idInputSchema, idParamsSchema } from '@shuzhi/contracts/crud';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import {
  openAccessAddInputSchema,
  openAccessItemSchema,
  openAccessPageInputSchema,
  openAccessRowSchema,
  openAccessSecretSchema,
  openAccessTokenSchema,
  openAccessUpdateInputSchema,
} from '@shuzhi/contracts/open-access';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { type ExportColumn, sendXlsx } from '../../platform/crud/export.ts';
import { FIELD_LABELS as L } from '../../platform/crud/labels.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  addOpenAccess,
  openAccessDetail,
  openAccessExportRows,
  openAccessHooks,
  openAccessList,
  openAccessPage,
  resetOpenAccessSecret,
  tokenForSignedRequest,
  updateOpenAccess,
} from './open-access.service.ts';

const resource = 'sysOpenAccess';
const base = `/api/${resource}`;
const tags = [resource];
const TITLE: Localized = { 'zh-CN': '开放接口', en: 'Open access keys', 'zh-TW': '開放介面' };

const EXPORT_COLUMNS: readonly ExportColumn<keyof z.output<typeof openAccessItemSchema> & string>[] = [
  { field: 'accessKey', label: { 'zh-CN': '身份标识', en: 'Access key', 'zh-TW': '身分識別' }, width: 28 },
  { field: 'bindUserAccount', label: { 'zh-CN': '绑定账号', en: 'Bound account', 'zh-TW': '綁定帳號' } },
  { field: 'bindUserRealName', label: { 'zh-CN': '绑定用户', en: 'Bound user', 'zh-TW': '綁定使用者' } },
  { field: 'bindUserOrgName', label: { 'zh-CN': '所属机构', en: 'Organisation', 'zh-TW': '所屬機構' } },
  { field: 'status', label: L.status, constant: 'status' },
  { field: 'lastUsedTime', label: { 'zh-CN': '最近使用', en: 'Last used', 'zh-TW': '最近使用' }, width: 20 },
  { field: 'remark', label: L.remark, width: 30 },
  { field: 'createTime', label: L.createTime, width: 20 },
  { field: 'createUserName', label: L.createUserName },
];

const summary = (what: string) => `${TITLE.en}: ${what}`;

export function openAccessRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Delete and status through the factory; reads join the bound user and never select the secret, add
  // answers the secret once, and the bound user is checked outside a transaction, so those are the module's own.
  defineCrud(app, ctx, {
    resource,
    table: 'sys_open_access',
    tenant: true,
    title: TITLE,
    item: openAccessRowSchema,
    page: openAccessPageInputSchema,
    setStatus: true,
    omit: ['page', 'list', 'detail', 'add', 'update'],
    hooks: openAccessHooks,
  });

  for (const method of ['POST', 'GET'] as const) {
    defineRoute(app, ctx, {
      method,
      url: `${base}/page`,
      access: 'sysOpenAccess:page',
      summary: summary(method === 'POST' ? 'page' : 'page (query)'),
      tags,
      ...(method === 'POST' ? { body: openAccessPageInputSchema } : { query: openAccessPageInputSchema }),
      response: pageResultSchema(openAccessItemSchema),
      handler: ({ ctx, req, body, query }) =>
        openAccessPage(ctx, currentUser(req), (body ?? query) as z.output<typeof openAccessPageInputSchema>),
    });
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${base}/list`,
    access: 'sysOpenAccess:list',
    summary: summary('list (at most 10000)'),
    tags,
    query: openAccessPageInputSchema.omit({
      page: true,
      pageSize: true,
      field: true,
      order: true,
      descStr: true,
    }),
    response: z.array(openAccessItemSchema),
    handler: ({ ctx, req, query }) => openAccessList(ctx, currentUser(req), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${base}/detail`,
    access: 'sysOpenAccess:detail',
    summary: summary('detail (never the secret)'),
    tags,
    query: detailQuerySchema,
    response: openAccessItemSchema,
    handler: ({ ctx, req, query }) => openAccessDetail(ctx, currentUser(req), query.Id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${base}/:id(^\\d+$)`,
    access: 'sysOpenAccess:detail',
    summary: summary('detail by path'),
    tags,
    params: idParamsSchema,
    response: openAccessItemSchema,
    handler: ({ ctx, req, params }) => openAccessDetail(ctx, currentUser(req), params.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${base}/add`,
    access: 'sysOpenAccess:add',
    summary: summary('add; answers the key and its secret (shown this once)'),
    tags,
    body: openAccessAddInputSchema,
    response: openAccessSecretSchema,
    handler: ({ ctx, req, body }) => addOpenAccess(ctx, currentUser(req), body),
  });

  for (const [method, url] of [
    ['POST', 'update'],
    ['PUT', 'update'],
    ['PUT', 'put'],
  ] as const) {
    defineRoute(app, ctx, {
      method,
      url: `${base}/${url}`,
      access: 'sysOpenAccess:update',
      summary: summary('update the bound user or the remark'),
      tags,
      body: openAccessUpdateInputSchema,
      response: z.null(),
      handler: ({ ctx, req, body }) => updateOpenAccess(ctx, currentUser(req), body),
    });
  }

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${base}/resetSecret`,
    access: 'sysOpenAccess:resetSecret',
    summary: summary('new secret (shown this once); the old one stops working'),
    tags,
    body: idInputSchema,
    response: openAccessSecretSchema,
    handler: ({ ctx, req, body }) => resetOpenAccessSecret(ctx, currentUser(req), body.id),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${base}/export`,
    access: 'sysOpenAccess:export',
    raw: true,
    summary: summary('Excel (.xlsx) of the keys matching the filters (never the secrets)'),
    tags,
    body: openAccessPageInputSchema,
    response: z.unknown(),
    handler: ({ ctx, req, reply, body, locale }) =>
      sendXlsx(ctx, reply, {
        title: TITLE,
        locale,
        columns: EXPORT_COLUMNS,
        batches: openAccessExportRows(ctx, currentUser(req), body),
      }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/auth/token',
    access: 'public',
    limit: 'login',
    summary:
      'A token pair for the bound user of a signed request (headers accessKey, timestamp, nonce, sign)',
    tags: ['sysAuth'],
    response: openAccessTokenSchema,
    handler: ({ ctx, req }) => tokenForSignedRequest(ctx, req),
  });
}
