import { addResultSchema, idParamsSchema } from '@shuzhi/contracts/crud';
import {
  formTaskSchema,
  myTaskPageInputSchema,
  myTaskRowSchema,
  taskAddInputSchema,
  taskDetailSchema,
  taskGridSchema,
  taskHandOnInputSchema,
  taskIdQuerySchema,
  taskPageInputSchema,
  taskRowSchema,
  taskTransferInputSchema,
} from '@shuzhi/contracts/diy-task';
import { taskGridQuerySchema } from '@shuzhi/contracts/diy-task-lifecycle';
import { pageResultSchema } from '@shuzhi/contracts/envelope';
import { roleChoiceSchema } from '@shuzhi/contracts/role';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { registerBelongReader } from '../../platform/files/belong.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { enabledRoleChoices } from '../role/role.service.ts';
import { TASK_FILE_TYPE, taskFileReadable } from './task-files.ts';
import { taskLifecycleRoutes } from './task-lifecycle.routes.ts';
import { formTasks, myTaskPage, taskDetail, taskGrid, taskPage } from './task-read.ts';
import { taskReviewRoutes } from './task-review.routes.ts';
import { diyTaskScheduleRoutes } from './task-schedule.routes.ts';
import { taskUrgeRoutes } from './task-urge.routes.ts';
import { addTask, handOnTask, transferTask } from './task-write.ts';

const ID_PATH = '(^\\d+$)';

/**
 * Tasks (issue 19, docs/tasks.md): create and distribute (diyTask:add), hand on (diyTask:distribute), transfer
 * (diyTask:transfer), the lists (diyTask:page; 我的任务 for everyone signed in), detail and completeness grid
 * (whoever sees the task), and `GET /api/diyTable/task/{id}` (a form's tasks with the caller's part).
 */
export function diyTaskRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;
  registerBelongReader(TASK_FILE_TYPE, taskFileReadable);
  diyTaskScheduleRoutes(app, ctx);

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/add',
    access: 'diyTask:add',
    summary:
      'Tasks: create a task for published forms and a period, distributed to receiving units (orgs, with or ' +
      'without their subtrees, or by org type) in one transaction; answers its id',
    tags: ['diyTask'],
    body: taskAddInputSchema,
    response: addResultSchema,
    handler: ({ body, req }) => addTask(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/handOn',
    access: 'diyTask:distribute',
    summary:
      'Tasks: a receiving unit hands its part on (下发) to units below it with an earlier or equal due time',
    tags: ['diyTask'],
    body: taskHandOnInputSchema,
    response: z.number(),
    handler: ({ body, req }) => handOnTask(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/transfer',
    access: 'diyTask:transfer',
    summary:
      'Tasks: a receiving unit passes its part to another unit (转办) with a reason; answers the new part',
    tags: ['diyTask'],
    body: taskTransferInputSchema,
    response: z.number(),
    handler: ({ body, req }) => transferTask(ctx, me(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/page',
    access: 'diyTask:page',
    summary: 'Tasks: created by the caller, or all in their data scope, with progress',
    tags: ['diyTask'],
    body: taskPageInputSchema,
    response: pageResultSchema(taskRowSchema),
    handler: ({ body, req, locale }) => taskPage(ctx, me(req), body, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyTask/mine',
    access: 'loggedIn',
    summary: 'Tasks: 我的任务 — the parts the caller’s own units received, with their due time and state',
    tags: ['diyTask'],
    body: myTaskPageInputSchema,
    response: pageResultSchema(myTaskRowSchema),
    handler: ({ body, req, locale }) => myTaskPage(ctx, me(req), body, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/detail',
    access: 'loggedIn',
    summary: 'Tasks: a task with its instructions, the receivers the caller may see and its history',
    tags: ['diyTask'],
    query: taskIdQuerySchema,
    response: taskDetailSchema,
    handler: ({ query, req, locale }) => taskDetail(ctx, me(req), query.id, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/grid',
    access: 'loggedIn',
    summary:
      'Tasks: the completeness grid (receivers × forms) for the task’s periods, optionally by org type, depth ' +
      'in the tree or cell state',
    tags: ['diyTask'],
    query: taskGridQuerySchema,
    response: taskGridSchema,
    handler: ({ query, req, locale }) => taskGrid(ctx, me(req), query, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyTable/task/:id${ID_PATH}`,
    access: 'loggedIn',
    summary:
      'Tasks: the open tasks asking for this form, with the caller’s own part (period, due time, state)',
    tags: ['diyTable'],
    params: idParamsSchema,
    response: z.array(formTaskSchema),
    handler: ({ params, req, locale }) => formTasks(ctx, me(req), params.id, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyTask/pickRoles',
    access: 'diyTask:page',
    summary:
      'Tasks: the tenant’s enabled roles, for receivers named by role (their users’ units receive the task)',
    tags: ['diyTask'],
    response: z.array(roleChoiceSchema),
    handler: ({ req }) => enabledRoleChoices(ctx, me(req).tenantId),
  });

  taskLifecycleRoutes(app, ctx);
  taskUrgeRoutes(app, ctx);
  taskReviewRoutes(app, ctx);
}
