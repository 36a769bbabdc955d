import { constOutputSchema, constTypeParamsSchema } from '@shuzhi/contracts/const';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { constData, constTypes } from './const.service.ts';

const tags = ['sysConst'];

export function constRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConst/list',
    access: 'loggedIn',
    summary: 'Constant lists',
    tags,
    response: z.array(constOutputSchema),
    handler: ({ locale }) => constTypes(locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysConst/data/:typeName',
    access: 'loggedIn',
    summary: 'Items of one constant list',
    tags,
    params: constTypeParamsSchema,
    response: z.array(constOutputSchema),
    handler: ({ params, locale }) => constData(params.typeName, locale),
  });
}
