import {
  collectDetailQuerySchema,
  collectInputSchema,
  collectResultSchema,
  myFilingSchema,
  myReportItemSchema,
  myReportsQuerySchema,
} from '@shuzhi/contracts/diy-collect';
import { formItemSchema } from '@shuzhi/contracts/diy-table';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { collect, collectDetail, collectList, myReports } from './diy-collect.service.ts';
import { myFilings } from './my-filings.ts';

const TAGS = ['diyTableCollect'];

/**
 * `/api/diyTableCollect/…`: favourite forms and the enterprise portal's report list (issue 6 §5). Every
 * signed-in user may use them; each answer is limited to the forms `formAuth` lets the caller open.
 */
export function diyCollectRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTableCollect/collect',
    access: 'loggedIn',
    summary: 'Favourites: toggle (or set with collect) a favourite form of the caller',
    tags: TAGS,
    body: collectInputSchema,
    response: collectResultSchema,
    handler: ({ body, req }) => collect(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableCollect/list',
    access: 'loggedIn',
    summary: 'Favourites: the caller’s favourite forms they may open (tableList items)',
    tags: TAGS,
    response: z.array(formItemSchema),
    handler: ({ req, locale }) => collectList(ctx, me(req), locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableCollect/myReports',
    access: 'loggedIn',
    summary: 'Portal: the forms the caller fills with their org’s record count, latest status, last submit',
    tags: TAGS,
    query: myReportsQuerySchema,
    response: z.array(myReportItemSchema),
    handler: ({ query, req, locale }) => myReports(ctx, me(req), query, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableCollect/myFilings',
    access: 'loggedIn',
    summary: 'Home: the periodic forms the caller files this period, with their own record’s state there',
    tags: TAGS,
    response: z.array(myFilingSchema),
    handler: ({ req, locale }) => myFilings(ctx, me(req), locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTableCollect/detail',
    access: 'loggedIn',
    summary: 'Portal: one form the caller may open, with their records summary and favourite flag',
    tags: TAGS,
    query: collectDetailQuerySchema,
    response: myReportItemSchema,
    handler: ({ query, req, locale }) => collectDetail(ctx, me(req), query.id, locale),
  });
}
