import { pageResultSchema } from '@shuzhi/contracts/envelope';
import {
  checkCronInputSchema,
  checkCronResultSchema,
  familyJobDetailRowSchema,
  jobClusterRowSchema,
  jobDetailAddInputSchema,
  jobDetailPageInputSchema,
  jobDetailRowSchema,
  jobDetailUpdateInputSchema,
  jobIdInputSchema,
  jobRecordPageInputSchema,
  jobRecordRowSchema,
  jobTriggerAddInputSchema,
  jobTriggerKeyInputSchema,
  jobTriggerListQuerySchema,
  jobTriggerRowSchema,
  jobTriggerUpdateInputSchema,
  runJobResultSchema,
} from '@shuzhi/contracts/job';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { dashboardRoute } from './job.dashboard.ts';
import { cancelJob, checkCron, clusterList, guard, jobRecordPage, runJob } from './job.service.ts';
import { addJobDetail, deleteJobDetail, jobDetailPage, updateJobDetail } from './job-details.ts';
import {
  addJobTrigger,
  deleteJobTrigger,
  jobTriggerList,
  setJob,
  setTrigger,
  updateJobTrigger,
} from './job-triggers.ts';

const TAGS = ['sysJob'];

/** The caller, who must be the super admin: jobs belong to the installation. */
function operator(req: FastifyRequest): AuthUser {
  const user = currentUser(req);
  guard(user);
  return user;
}
const BASE = '/api/sysJob';

/**
 * Scheduled jobs (`/api/sysJob/…`, SPEC §8): job details with their triggers, start / pause, run now and
 * cancel, run records, the cluster, and the cron check. Every route needs its `sysJob:*` permission and the
 * super admin (jobs belong to the installation). Also the job dashboard page at `/schedule`.
 */
export function jobRoutes(app: FastifyInstance, ctx: AppContext): void {
  jobDetailRoutes(app, ctx);
  jobTriggerRoutes(app, ctx);
  jobSwitchRoutes(app, ctx);
  jobRunRoutes(app, ctx);
  dashboardRoute(app, ctx);
}

/** Job details: page, add, update, delete. */
function jobDetailRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/pageJobDetail`,
    access: 'sysJob:page',
    summary: 'Jobs: a page of job details with their triggers and whether a run is going on',
    tags: TAGS,
    query: jobDetailPageInputSchema,
    response: pageResultSchema(jobDetailRowSchema),
    handler: ({ ctx, req, query }) => {
      operator(req);
      return jobDetailPage(ctx, query);
    },
  });
  // The family's clients post the page request and read each job nested (same permission and rows).
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/pageJobDetail`,
    access: 'sysJob:page',
    summary:
      'Jobs: a page of job details (the page request as a JSON body; rows also nested as the family reads them)',
    tags: TAGS,
    body: jobDetailPageInputSchema,
    response: pageResultSchema(familyJobDetailRowSchema),
    handler: async ({ ctx, req, body }) => {
      operator(req);
      const result = await jobDetailPage(ctx, body);
      return {
        ...result,
        items: result.items.map(({ triggers, ...detail }) => ({
          ...detail,
          triggers,
          jobDetail: detail,
          jobTriggers: triggers,
        })),
      };
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/addJobDetail`,
    access: 'sysJob:add',
    summary:
      'Jobs: add a built-in job (known handler, J1004) or an HTTP job (http/https URL, J1005); answers its id',
    tags: TAGS,
    body: jobDetailAddInputSchema,
    response: z.number(),
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return addJobDetail(ctx, user, body);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/updateJobDetail`,
    access: 'sysJob:update',
    summary: 'Jobs: change a job by id (its job id and kind stay)',
    tags: TAGS,
    body: jobDetailUpdateInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return updateJobDetail(ctx, user, body);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/deleteJobDetail`,
    access: 'sysJob:delete',
    summary: 'Jobs: delete a job with its triggers (built-in jobs cannot be deleted, J1001)',
    tags: TAGS,
    body: jobIdInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return deleteJobDetail(ctx, user, body.jobId);
    },
  });
}

/** Triggers of a job: list, add, update, delete. */
function jobTriggerRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/jobTriggerList`,
    access: 'sysJob:detail',
    summary: 'Jobs: the triggers of a job',
    tags: TAGS,
    query: jobTriggerListQuerySchema,
    response: z.array(jobTriggerRowSchema),
    handler: ({ ctx, req, query }) => {
      operator(req);
      return jobTriggerList(ctx, query.jobId);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/addJobTrigger`,
    access: 'sysJob:add',
    summary:
      'Jobs: add a trigger (cron with seconds, J1000 with the reason; or a period; end after start, J1006)',
    tags: TAGS,
    body: jobTriggerAddInputSchema,
    response: z.number(),
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return addJobTrigger(ctx, user, body);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/updateJobTrigger`,
    access: 'sysJob:update',
    summary: 'Jobs: change a trigger by id; its next run time follows (a paused trigger stays paused)',
    tags: TAGS,
    body: jobTriggerUpdateInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return updateJobTrigger(ctx, user, body);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/deleteJobTrigger`,
    access: 'sysJob:delete',
    summary: 'Jobs: delete a trigger',
    tags: TAGS,
    body: jobTriggerKeyInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return deleteJobTrigger(ctx, user, body.jobId, body.triggerId);
    },
  });
}

/** Start and pause: a job's triggers, one trigger, every job. */
function jobSwitchRoutes(app: FastifyInstance, ctx: AppContext): void {
  const switches = [
    { url: 'startJob', access: 'sysJob:start', start: true, what: 'start every trigger of a job' },
    { url: 'pauseJob', access: 'sysJob:pause', start: false, what: 'pause every trigger of a job' },
  ] as const;
  for (const s of switches) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${BASE}/${s.url}`,
      access: s.access,
      summary: `Jobs: ${s.what}`,
      tags: TAGS,
      body: jobIdInputSchema,
      response: z.null(),
      handler: ({ ctx, req, body }) => {
        const user = operator(req);
        return setJob(ctx, user, body.jobId, s.start);
      },
    });
  }

  const triggerSwitches = [
    { url: 'startTrigger', access: 'sysJob:start', start: true, what: 'start a trigger' },
    { url: 'pauseTrigger', access: 'sysJob:pause', start: false, what: 'pause a trigger' },
  ] as const;
  for (const s of triggerSwitches) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${BASE}/${s.url}`,
      access: s.access,
      summary: `Jobs: ${s.what}`,
      tags: TAGS,
      body: jobTriggerKeyInputSchema,
      response: z.null(),
      handler: ({ ctx, req, body }) => {
        const user = operator(req);
        return setTrigger(ctx, user, body.jobId, body.triggerId, s.start);
      },
    });
  }

  const allSwitches = [
    { url: 'startAllJob', access: 'sysJob:start', start: true, what: 'start every trigger of every job' },
    { url: 'pauseAllJob', access: 'sysJob:pause', start: false, what: 'pause every trigger of every job' },
  ] as const;
  for (const s of allSwitches) {
    defineRoute(app, ctx, {
      method: 'POST',
      url: `${BASE}/${s.url}`,
      access: s.access,
      summary: `Jobs: ${s.what}`,
      tags: TAGS,
      response: z.null(),
      handler: ({ ctx, req }) => {
        const user = operator(req);
        return setJob(ctx, user, null, s.start);
      },
    });
  }
}

/** Run now and cancel, run records, the cluster, and the cron check. */
function jobRunRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/runJob`,
    access: 'sysJob:runNow',
    summary:
      'Jobs: run a job now in the process that receives the request; answers the run record id (J1003 while running)',
    tags: TAGS,
    body: jobIdInputSchema,
    response: runJobResultSchema,
    handler: ({ ctx, req, body }) => {
      const user = operator(req);
      return runJob(ctx, user, body.jobId);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/cancelJob`,
    access: 'sysJob:cancel',
    summary: 'Jobs: cancel the running runs of a job, in whichever process they run (J1002 when none runs)',
    tags: TAGS,
    body: jobIdInputSchema,
    response: z.null(),
    handler: ({ ctx, req, body }) => {
      operator(req);
      return cancelJob(ctx, body.jobId);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/pageJobTriggerRecord`,
    access: 'sysJob:page',
    summary: 'Jobs: a page of run records, newest first',
    tags: TAGS,
    query: jobRecordPageInputSchema,
    response: pageResultSchema(jobRecordRowSchema),
    handler: ({ ctx, req, query }) => {
      operator(req);
      return jobRecordPage(ctx, query);
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `${BASE}/clusterList`,
    access: 'sysJob:list',
    summary: 'Jobs: the server processes with their heartbeat; the scheduler leader and this process marked',
    tags: TAGS,
    response: z.array(jobClusterRowSchema),
    handler: ({ ctx, req }) => {
      operator(req);
      return clusterList(ctx);
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `${BASE}/checkCron`,
    access: 'sysJob:detail',
    summary:
      'Jobs: check a cron expression with seconds; the next five run times or the reason it is refused',
    tags: TAGS,
    body: checkCronInputSchema,
    response: checkCronResultSchema,
    handler: ({ req, body, locale }) => {
      operator(req);
      return checkCron(body.cron, locale);
    },
  });
}
