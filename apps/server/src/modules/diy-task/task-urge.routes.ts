import { taskIdQuerySchema } from '@shuzhi/contracts/diy-task';
import {
  taskUrgeInputSchema,
  taskUrgeRecordSchema,
  taskUrgeResultSchema,
} from '@shuzhi/contracts/diy-task-urge';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { myOpenTaskCount, taskUrges, urgeTask } from './task-urge.ts';

/**
 * Urging (issue 19 §3, docs/tasks.md "Urging"): urge by hand (diyTask:urge), the reminders sent for a task
 * (whoever sees it), and the count of the caller's parts still to do for the top bar.
 */
export function taskUrgeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/urge',
    access: 'diyTask:urge',
    summary:
      'Tasks: urge receivers that have not filed (催办) with a message — an in-app notice to their people and ' +
      'an SMS to each with a phone; answers how many units and people were reached',
    tags: ['diyTask'],
    body: taskUrgeInputSchema,
    response: taskUrgeResultSchema,
    handler: ({ body, req }) => urgeTask(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/urges',
    access: 'loggedIn',
    summary: 'Tasks: the reminders sent for a task (by hand and automatic), with channel and outcome',
    tags: ['diyTask'],
    query: taskIdQuerySchema,
    response: z.array(taskUrgeRecordSchema),
    handler: ({ query, req }) => taskUrges(ctx, me(req), query.id),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/mineCount',
    access: 'loggedIn',
    summary:
      'Tasks: how many of the caller’s own parts of open tasks are still to do (the top bar’s 我的任务)',
    tags: ['diyTask'],
    response: z.number(),
    handler: ({ req }) => myOpenTaskCount(ctx, me(req)),
  });
}
