import { idInputSchema } from '@shuzhi/contracts/crud';
import { type PageInput, pageResultSchema } from '@shuzhi/contracts/envelope';
import { own } from '@shuzhi/contracts/own';
import {
  USER_SORTABLE,
  userAddInputSchema,
  userExtOrgSchema,
  userGrantRoleInputSchema,
  userImportReportQuerySchema,
  userImportResultSchema,
  userPageInputSchema,
  userPageItemSchema,
  userResetPwdResultSchema,
  userRowSchema,
  userUpdateInputSchema,
} from '@shuzhi/contracts/user';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type CrudService, defineCrud } from '../../platform/crud/crud.ts';
import { sendXlsx } from '../../platform/crud/export.ts';
import { withUpload } from '../../platform/http/multipart.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { ACCOUNT_LABEL, userScope } from './user-admin.service.ts';
import { grantRoles, ownExtOrgs, ownRoleIds, resetPassword, unlockLogin } from './user-admin-actions.ts';
import { userHooks } from './user-admin-hooks.ts';
import { pageUsers, toPageItem, USER_SORT_COLUMNS, userListing } from './user-admin-listing.ts';
import { importTemplate, importUsers, sendImportReport, USER_IMPORT_MAX_BYTES } from './user-import.ts';
import { USER_EXPORT_COLUMNS } from './user-labels.ts';

const TAGS = ['sysUser'];
type UserCrud = CrudService<z.output<typeof userRowSchema>>;
const TITLE = { 'zh-CN': '账号管理', en: 'Users', 'zh-TW': '帳號管理' };
const LIST_LIMIT = 10_000;
const EXPORT_BATCH = 1_000;
const userIdParams = z.object({ userId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/**
 * `/api/sysUser/…` administration. The CRUD factory serves detail, add, update, delete and setStatus with the
 * user rules as hooks (users.service); page, list and export are here because they join the org and
 * position names into one query. Every read and write is narrowed to the caller's data scope.
 */
export function userAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  const crud = defineCrud(app, ctx, {
    resource: 'sysUser',
    table: 'sys_user',
    tenant: true,
    title: TITLE,
    item: userRowSchema,
    page: userPageInputSchema,
    add: userAddInputSchema,
    update: userUpdateInputSchema,
    // Accounts are unique over every tenant (the hooks check that); this names the field should a race trip the index.
    unique: [{ field: 'account', label: ACCOUNT_LABEL }],
    setStatus: true,
    sensitive: true,
    omit: ['page', 'list'],
    scope: userScope,
    hooks: userHooks(),
  });

  userListingRoutes(app, ctx);
  userActionRoutes(app, ctx, crud);
  userImportRoutes(app, ctx);
}

/** Page, list and export, with the org and position names joined in one query. */
function userListingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const pageOf = (input: PageInput & Record<string, unknown>, user: AuthUser) => pageUsers(ctx, user, input);
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/page',
    access: 'sysUser:page',
    summary: `Users: page (keyword, account, realName, phone, status, accountType, orgId and below; sort by ${USER_SORTABLE.join(', ')})`,
    tags: TAGS,
    body: userPageInputSchema,
    response: pageResultSchema(userPageItemSchema),
    handler: ({ body, req }) => pageOf(body, req.user as AuthUser),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/page',
    access: 'sysUser:page',
    summary: 'Users: page (query)',
    tags: TAGS,
    query: userPageInputSchema,
    response: pageResultSchema(userPageItemSchema),
    handler: ({ query, req }) => pageOf(query, req.user as AuthUser),
  });

  const listQuery = userPageInputSchema.omit({
    page: true,
    pageSize: true,
    field: true,
    order: true,
    descStr: true,
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/list',
    access: 'sysUser:list',
    summary: `Users: list (same filters as page, order then account; at most ${LIST_LIMIT})`,
    tags: TAGS,
    query: listQuery,
    response: z.array(userPageItemSchema),
    handler: async ({ query, req }) => {
      const rows = await (await userListing(ctx, req.user as AuthUser, query))
        .orderBy('u.order_no')
        .orderBy('u.account')
        .limit(LIST_LIMIT)
        .execute();
      return rows.map(toPageItem);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/export',
    access: 'sysUser:export',
    raw: true,
    summary: 'Users: Excel (.xlsx) of the rows matching the filters, in the request language',
    tags: TAGS,
    body: userPageInputSchema,
    response: z.unknown(),
    handler: async ({ body, req, reply, locale }) => {
      const query = await userListing(ctx, req.user as AuthUser, body);
      const column = body.field && body.order ? own(USER_SORT_COLUMNS, body.field) : undefined;
      const ordered = column
        ? query.orderBy(column as never, body.order === body.descStr ? 'desc' : 'asc').orderBy('u.id', 'desc')
        : query.orderBy('u.id', 'desc');
      async function* batches() {
        for (let offset = 0; ; offset += EXPORT_BATCH) {
          const rows = await ordered.limit(EXPORT_BATCH).offset(offset).execute();
          yield rows.map((r) => toPageItem(r) as Record<string, unknown>);
          if (rows.length < EXPORT_BATCH) return;
        }
      }
      return sendXlsx(ctx, reply, { title: TITLE, locale, columns: USER_EXPORT_COLUMNS, batches: batches() });
    },
  });
}

/**
 * Reset the password, unlock sign-in, grant roles, and a user's roles and extra orgs; the target is a user
 * the caller may see (`crud.detail`).
 */
function userActionRoutes(app: FastifyInstance, ctx: AppContext, crud: UserCrud): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/resetPwd',
    access: 'sysUser:resetPwd',
    summary: 'Users: reset the password to the default (sys_password); answers it, to be shown once',
    tags: TAGS,
    body: idInputSchema,
    response: userResetPwdResultSchema,
    handler: async ({ body, req }) => {
      const user = req.user as AuthUser;
      return resetPassword(ctx, user, await crud.detail(body.id, user));
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/unlockLogin',
    access: 'sysUser:unlockLogin',
    summary: 'Users: lift the sign-in lock after too many wrong passwords',
    tags: TAGS,
    body: idInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      const user = req.user as AuthUser;
      return unlockLogin(ctx, user, await crud.detail(body.id, user));
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/grantRole',
    access: 'sysUser:grantRole',
    summary: "Users: replace a user's roles (roles of the user's tenant only)",
    tags: TAGS,
    body: userGrantRoleInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      const user = req.user as AuthUser;
      return grantRoles(ctx, user, await crud.detail(body.userId, user), body.roleIdList);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/ownRoleList/:userId',
    access: 'sysUser:detail',
    summary: "Users: the ids of a user's roles",
    tags: TAGS,
    params: userIdParams,
    response: z.array(z.number()),
    handler: async ({ params, req }) => {
      await crud.detail(params.userId, req.user as AuthUser);
      return ownRoleIds(ctx, params.userId);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/ownExtOrgList/:userId',
    access: 'sysUser:detail',
    summary: "Users: a user's extra orgs, with the position held there",
    tags: TAGS,
    params: userIdParams,
    response: z.array(userExtOrgSchema),
    handler: async ({ params, req }) => {
      await crud.detail(params.userId, req.user as AuthUser);
      return ownExtOrgs(ctx, params.userId);
    },
  });
}

/** The Excel import: its template, the import itself, and the error report. */
function userImportRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/downloadImportTemplate',
    access: 'sysUser:import',
    raw: true,
    summary: 'Users: the import template (.xlsx), with the org, position and role codes to use',
    tags: TAGS,
    response: z.unknown(),
    handler: async ({ req, reply, locale }) => importTemplate(ctx, req.user as AuthUser, reply, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/importErrorReport',
    access: 'sysUser:import',
    raw: true,
    summary: 'Users: the error report of an import (the uploaded sheet with an error column)',
    tags: TAGS,
    query: userImportReportQuerySchema,
    response: z.unknown(),
    handler: async ({ query, req, reply, locale }) =>
      sendImportReport(ctx, req.user as AuthUser, reply, query.id, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/import',
    access: 'sysUser:import',
    summary:
      'Users: import an .xlsx made from the template (multipart `file`); valid rows go in one transaction, ' +
      'the answer lists the rows refused and why',
    tags: TAGS,
    response: userImportResultSchema,
    handler: ({ req, locale }) =>
      withUpload(req, USER_IMPORT_MAX_BYTES, (upload) =>
        importUsers(ctx, req.user as AuthUser, upload.path, locale),
      ),
  });
}
