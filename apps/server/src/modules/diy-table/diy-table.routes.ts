import { addResultSchema, idInputSchema, idParamsSchema } from '@shuzhi/contracts/crud';
import {
  checkFormPwdInputSchema,
  clearTipInputSchema,
  cloneInputSchema,
  columnOptionSchema,
  designSaveInputSchema,
  designSaveResultSchema,
  formAddInputSchema,
  formDesignResultSchema,
  formIdQuerySchema,
  formItemSchema,
  formOptionSchema,
  formPageInputSchema,
  formRowSchema,
  formSelectQuerySchema,
  formUpdateInputSchema,
  pickOptionSchema,
  pickQuerySchema,
  tableListQuerySchema,
} from '@shuzhi/contracts/diy-table';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import { roleChoiceSchema } from '@shuzhi/contracts/role';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { withFieldErrors } from '../../platform/diy/field-errors.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import { ValidationError } from '../../platform/errors/app-error.ts';
import { success } from '../../platform/http/envelope.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { enabledRoleChoices } from '../role/role.service.ts';
import { checkFormPassword } from './diy-password.ts';
import { pickOrgs, pickUsers } from './diy-pick.ts';
import { cloneForm } from './form-clone.ts';
import { formDesignResult, saveDesign } from './form-design.ts';
import { clearTip, columnOptions, formOptions, tableList } from './form-items.ts';
import { formDetail, formList, formPage } from './form-rows.ts';
import { addForm, deleteForms, updateForm } from './form-write.ts';

const TAGS = ['diyTable'];
const NULL_RESULT = z.null();
const ID_PATH = '(^\\d+$)';

const VERIFIED: Localized = { 'zh-CN': '验证成功', en: 'Verified', 'zh-TW': '驗證成功' };

/** The id of `?id=` / `?Id=`, or the validation failure of a missing one. */
function queryId(query: z.output<typeof formIdQuerySchema>): number {
  const id = query.id ?? query.Id;
  if (id === undefined) {
    const parsed = idInputSchema.safeParse({});
    throw new ValidationError(parsed.success ? [] : parsed.error.issues, 'querystring');
  }
  return id;
}

const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

/**
 * `/api/diyTable/…` (issue 5, SPEC "DiyTable"): form administration (diyTable:* on forms whose owner org
 * is in the caller's data scope), designs and versions, the forms a user may open, the form password, and
 * the user / org pickers of the filling page.
 */
export function diyTableRoutes(app: FastifyInstance, ctx: AppContext): void {
  formAdminRoutes(app, ctx);
  formDesignRoutes(app, ctx);
  formChoiceRoutes(app, ctx);
  formToolRoutes(app, ctx);
}

/** Form administration: page, list, detail, add, update and (soft) delete. */
function formAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const method of ['POST', 'GET'] as const) {
    defineRoute(app, ctx, {
      method,
      url: '/api/diyTable/page',
      access: 'diyTable:page',
      summary: 'Forms: a page of the forms the caller administers',
      tags: TAGS,
      ...(method === 'POST' ? { body: formPageInputSchema } : { query: formPageInputSchema }),
      response: pageResultSchema(formRowSchema),
      handler: ({ body, query, req }) =>
        formPage(ctx, me(req), (method === 'POST' ? body : query) as z.output<typeof formPageInputSchema>),
    });
  }

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/list',
    access: 'diyTable:list',
    summary: 'Forms: every form the caller administers (filters of page)',
    tags: TAGS,
    query: formPageInputSchema.partial(),
    response: z.array(formRowSchema),
    handler: ({ query, req }) => formList(ctx, me(req), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/detail',
    access: 'diyTable:detail',
    summary: 'Forms: one form’s settings (?id= or ?Id=)',
    tags: TAGS,
    query: formIdQuerySchema,
    response: formRowSchema,
    handler: ({ query, req }) => formDetail(ctx, me(req), queryId(query)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/add',
    access: 'diyTable:add',
    summary: 'Forms: a new form (report type 1) with an empty design; answers its id',
    tags: TAGS,
    body: formAddInputSchema,
    response: addResultSchema,
    handler: ({ body, req }) => addForm(ctx, me(req), body),
  });

  for (const [method, url] of [
    ['POST', 'update'],
    ['PUT', 'update'],
  ] as const) {
    defineRoute(app, ctx, {
      method,
      url: `/api/diyTable/${url}`,
      access: 'diyTable:update',
      summary: 'Forms: change a form’s settings (the design goes through PUT /design)',
      tags: TAGS,
      body: formUpdateInputSchema,
      response: NULL_RESULT,
      handler: async ({ body, req }) => {
        await updateForm(ctx, me(req), body);
        return null;
      },
    });
  }

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/delete',
    access: 'diyTable:delete',
    summary: 'Forms: delete (soft; the form goes to the recycle bin)',
    tags: TAGS,
    body: idInputSchema,
    response: NULL_RESULT,
    handler: async ({ body, req }) => {
      await deleteForms(ctx, me(req), [body.id]);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: '/api/diyTable/delete',
    access: 'diyTable:delete',
    summary: 'Forms: delete (soft); id in the body or the query',
    tags: TAGS,
    query: formIdQuerySchema,
    body: idInputSchema.nullish(),
    response: NULL_RESULT,
    handler: async ({ body, query, req }) => {
      await deleteForms(ctx, me(req), [body?.id ?? queryId(query)]);
      return null;
    },
  });
  defineRoute(app, ctx, {
    method: 'DELETE',
    url: `/api/diyTable/:id${ID_PATH}`,
    access: 'diyTable:delete',
    summary: 'Forms: delete (soft) by path',
    tags: TAGS,
    params: idParamsSchema,
    response: NULL_RESULT,
    handler: async ({ params, req }) => {
      await deleteForms(ctx, me(req), [params.id]);
      return null;
    },
  });
}

/** The designer: save or publish a design, the design with its versions, the published fields as choices. */
function formDesignRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'PUT',
    url: '/api/diyTable/design',
    access: 'diyTable:design',
    summary:
      'Forms: save the draft design; publish: true also publishes it as the next version (adds columns). ' +
      'Design problems come back as field errors keyed by field id; a stale baseRevision is refused (F1004)',
    tags: TAGS,
    body: designSaveInputSchema,
    response: designSaveResultSchema,
    handler: ({ body, req, reply, locale }) =>
      withFieldErrors(reply, () => saveDesign(ctx, me(req), body, locale)),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyTable/:id${ID_PATH}`,
    access: 'diyTable:detail',
    summary: 'Forms: settings, draft and published designs, and the versions of a form',
    tags: TAGS,
    params: idParamsSchema,
    response: formDesignResultSchema,
    handler: ({ params, req }) => formDesignResult(ctx, me(req), params.id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyTable/column/select/:id${ID_PATH}`,
    access: 'loggedIn',
    summary: 'Forms: the published fields of a form the caller may open or design, as choices',
    tags: TAGS,
    params: idParamsSchema,
    response: z.array(columnOptionSchema),
    handler: ({ params, req }) => columnOptions(ctx, me(req), params.id),
  });
}

/** Forms a user may open or design, the filling list, and the visit mark. */
function formChoiceRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/select/:type',
    access: 'loggedIn',
    summary: 'Forms: the forms of a report type the caller may open or design, as choices',
    tags: TAGS,
    params: z.object({ type: z.coerce.number().int().min(1).max(99) }),
    response: z.array(formOptionSchema),
    handler: ({ params, req }) => formOptions(ctx, me(req), { Types: String(params.type) }),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/select',
    access: 'loggedIn',
    summary:
      'Forms: forms as choices by report types (Types=1,2) and affiliation (1 of the caller’s orgs, 2 they fill)',
    tags: TAGS,
    query: formSelectQuerySchema,
    response: z.array(formOptionSchema),
    handler: ({ query, req }) => formOptions(ctx, me(req), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/tableList',
    access: 'loggedIn',
    summary: 'Forms: the published forms the caller fills, views, reviews or administers, with myAuth',
    tags: TAGS,
    query: tableListQuerySchema,
    response: z.array(formItemSchema),
    handler: ({ query, req, locale }) => tableList(ctx, me(req), query, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/clearTip',
    access: 'loggedIn',
    summary: 'Forms: the caller opened a form (its tip flag goes off)',
    tags: TAGS,
    body: clearTipInputSchema,
    response: NULL_RESULT,
    handler: async ({ body, req }) => {
      await clearTip(ctx, me(req), body.id);
      return null;
    },
  });
}

/** Cloning a form, the form password check, and the role / user / org pickers of the filling page. */
function formToolRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/clone',
    access: 'diyTable:clone',
    summary: 'Forms: copy a form’s design, or its design with its records; answers the new id',
    tags: TAGS,
    body: cloneInputSchema,
    response: addResultSchema,
    handler: ({ body, req }) => cloneForm(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTable/CheckFormPwd',
    access: 'loggedIn',
    summary:
      'Forms: verify a form password (SM2); code 200 with message 验证成功, remembered for the session; ' +
      'wrong tries are limited per user and form',
    tags: TAGS,
    body: checkFormPwdInputSchema,
    response: NULL_RESULT,
    handler: async ({ body, req, reply, locale }) => {
      await checkFormPassword(ctx, me(req), body.tableId, body.password);
      return reply.status(200).send({ ...success(null), message: VERIFIED[locale] });
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/pickRoles',
    access: 'diyTable:page',
    summary: 'Forms: the tenant’s enabled roles, for the fillers and viewers of a form',
    tags: TAGS,
    response: z.array(roleChoiceSchema),
    handler: ({ req }) => enabledRoleChoices(ctx, me(req).tenantId),
  });
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/pickUsers',
    access: 'loggedIn',
    summary: 'Forms: users a user field may hold (keyword search, or the labels of ids)',
    tags: TAGS,
    query: pickQuerySchema,
    response: z.array(pickOptionSchema),
    handler: async ({ query, req }) => pickUsers(ctx, await loadCaller(ctx, me(req)), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTable/pickOrgs',
    access: 'loggedIn',
    summary: 'Forms: orgs (type=enterprise: enterprises) an org or enterprise field may hold',
    tags: TAGS,
    query: pickQuerySchema,
    response: z.array(pickOptionSchema),
    handler: async ({ query, req }) => pickOrgs(ctx, await loadCaller(ctx, me(req)), query),
  });
}
