import {
  addResultSchema,
  batchDeleteInputSchema,
  detailQuerySchema,
  idInputSchema,
  idParamsSchema,
  setStatusInputSchema,
} from '@shuzhi/contracts/crud';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthUser } from '../context.ts';
import { ValidationError } from '../errors/app-error.ts';
import { defineRoute } from '../http/route.ts';
import type { AnyRow, CrudPlan } from './crud-plan.ts';
import { type CrudReads, LIST_LIMIT } from './crud-read.ts';
import type { ObjectSchema } from './crud-spec.ts';
import type { CrudWrites } from './crud-write.ts';

const NULL_RESULT = z.null();
const userOf = (req: { user?: unknown }) => req.user as AuthUser;

/** The parts of a declaration that decide which routes there are and what they take. */
export type CrudRouteSpec = {
  item: ObjectSchema;
  page: ObjectSchema;
  add?: ObjectSchema;
  update?: ObjectSchema;
  omit?: readonly string[];
  batchDelete?: boolean;
  setStatus?: boolean;
};

/** Throws the validation failure (code 400, field errors) that `schema` reports for `value`. */
function invalid(schema: z.ZodType, value: unknown, part: 'body' | 'querystring'): never {
  const parsed = schema.safeParse(value, { reportInput: true });
  throw new ValidationError(parsed.success ? [] : parsed.error.issues, part);
}

/** What every route of a resource shares: its URL base, tag, OpenAPI summary prefix and access. */
export function routeBasics(plan: CrudPlan) {
  return {
    base: `/api/${plan.resource}`,
    tags: [plan.resource],
    summary: (what: string) => `${plan.title.en}: ${what}`,
  };
}

/** `page` (POST body or GET query), `list` and `detail` (query or path), unless omitted. */
export function registerReadRoutes(
  app: FastifyInstance,
  plan: CrudPlan,
  spec: CrudRouteSpec,
  reads: CrudReads,
): void {
  const { ctx, access } = plan;
  const { base, tags, summary } = routeBasics(plan);
  const omitted = new Set<string>(spec.omit ?? []);
  const item = spec.item as z.ZodType<AnyRow>;

  if (!omitted.has('page')) {
    const page = { access: access('page'), tags, response: pageResultSchema(item) };
    defineRoute(app, ctx, {
      ...page,
      method: 'POST',
      url: `${base}/page`,
      summary: summary('page'),
      body: spec.page,
      handler: ({ body, req }) => reads.page(body as AnyRow, userOf(req)),
    });
    defineRoute(app, ctx, {
      ...page,
      method: 'GET',
      url: `${base}/page`,
      summary: summary('page (query)'),
      query: spec.page,
      handler: ({ query, req }) => reads.page(query as AnyRow, userOf(req)),
    });
  }

  if (!omitted.has('list')) {
    defineRoute(app, ctx, {
      method: 'GET',
      url: `${base}/list`,
      access: access('list'),
      summary: summary(`list (at most ${LIST_LIMIT})`),
      tags,
      query: spec.page.omit({ page: true, pageSize: true, field: true, order: true, descStr: true }),
      response: z.array(item),
      handler: ({ query, req }) => reads.list(query as AnyRow, userOf(req)),
    });
  }

  if (!omitted.has('detail')) {
    const detail = { access: access('detail'), tags, response: item };
    defineRoute(app, ctx, {
      ...detail,
      method: 'GET',
      url: `${base}/detail`,
      summary: summary('detail'),
      query: detailQuerySchema,
      handler: ({ query, req }) => reads.detail(query.Id, userOf(req)),
    });
    defineRoute(app, ctx, {
      ...detail,
      method: 'GET',
      url: `${base}/:id(^\\d+$)`,
      summary: summary('detail by path'),
      params: idParamsSchema,
      handler: ({ params, req }) => reads.detail(params.id, userOf(req)),
    });
  }
}

/** `add`, `update` (POST/PUT, PUT `put`), soft `delete` (body, query or path), `batchDelete`, `setStatus`. */
export function registerWriteRoutes(
  app: FastifyInstance,
  plan: CrudPlan,
  spec: CrudRouteSpec,
  writes: CrudWrites,
): void {
  const { ctx, access, resource } = plan;
  const { base, tags, summary } = routeBasics(plan);
  const omitted = new Set<string>(spec.omit ?? []);
  const required = <S>(schema: S | undefined, action: string): S => {
    if (!schema) throw new Error(`${resource}: declare \`${action}\` or omit it`);
    return schema;
  };

  if (!omitted.has('add')) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/add`,
      access: access('add'),
      summary: summary('add; answers the new id'),
      tags,
      body: required(spec.add, 'add'),
      response: addResultSchema,
      handler: ({ body, req }) => writes.add(body as AnyRow, userOf(req), req.id),
    });
  }

  if (!omitted.has('update')) {
    for (const [method, url] of [
      ['POST', 'update'],
      ['PUT', 'update'],
      ['PUT', 'put'],
    ] as const) {
      defineRoute(app, ctx, {
        method,
        url: `${base}/${url}`,
        access: access('update'),
        summary: summary('update'),
        tags,
        body: required(spec.update, 'update'),
        response: NULL_RESULT,
        handler: ({ body, req }) => writes.update(body as AnyRow, userOf(req), req.id),
      });
    }
  }

  if (!omitted.has('delete')) registerDeleteRoutes(app, plan, writes);

  if (spec.batchDelete) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/batchDelete`,
      access: access('batchDelete'),
      summary: summary('delete several (soft), all or nothing'),
      tags,
      body: batchDeleteInputSchema,
      response: NULL_RESULT,
      handler: ({ body, req }) => writes.remove(Array.isArray(body) ? body : body.ids, userOf(req), req.id),
    });
  }

  if (spec.setStatus) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${base}/setStatus`,
      access: access('setStatus'),
      summary: summary('enable (1) or disable (2)'),
      tags,
      body: setStatusInputSchema,
      response: NULL_RESULT,
      handler: ({ body, req }) => writes.setStatus(body.id, body.status, userOf(req), req.id),
    });
  }
}

/** Soft delete of one row: id in a POST body, in a DELETE's body or query, or in the path. */
function registerDeleteRoutes(app: FastifyInstance, plan: CrudPlan, writes: CrudWrites): void {
  const { ctx } = plan;
  const { base, tags, summary } = routeBasics(plan);
  const common = { access: plan.access('delete'), tags, response: NULL_RESULT };
  defineRoute(app, ctx, {
    ...common,
    method: 'POST',
    url: `${base}/delete`,
    summary: summary('delete (soft)'),
    body: idInputSchema,
    handler: ({ body, req }) => writes.remove([body.id], userOf(req), req.id),
  });
  const deleteQuery = z.object({
    id: idInputSchema.shape.id.optional(),
    Id: idInputSchema.shape.id.optional(),
  });
  defineRoute(app, ctx, {
    ...common,
    method: 'DELETE',
    url: `${base}/delete`,
    summary: summary('delete (soft); id in the body or the query'),
    query: deleteQuery,
    body: idInputSchema.nullish(),
    handler: ({ body, query, req }) => {
      const id = body?.id ?? query.id ?? query.Id;
      if (id === undefined) invalid(idInputSchema, body ?? {}, 'body');
      return writes.remove([id], userOf(req), req.id);
    },
  });
  defineRoute(app, ctx, {
    ...common,
    method: 'DELETE',
    url: `${base}/:id(^\\d+$)`,
    summary: summary('delete (soft) by path'),
    params: idParamsSchema,
    handler: ({ params, req }) => writes.remove([params.id], userOf(req), req.id),
  });
}
