import {
  importConfirmInputSchema,
  importJobParamsSchema,
  importJobSchema,
  importTableParamsSchema,
  importUploadResultSchema,
} from '@shuzhi/contracts/diy-import';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  cancelImport,
  expireJobs,
  failInterruptedJobs,
  importJob,
  stopImports,
} from './diy-import.service.ts';
import { confirmImport } from './import-confirm.ts';
import { errorWorkbook } from './import-error-book.ts';
import { importTemplate } from './import-template.ts';
import { uploadImport } from './import-upload.ts';

const TAGS = ['diyImport'];
const SWEEP_MS = 5 * 60_000;

/**
 * Excel import of a form's records (issue 6 §4, docs/import.md). Signed-in users; the form's `myAuth.import`
 * decides the template and the upload, and a job answers only the user who started it (F1033).
 */
export function diyImportRoutes(app: FastifyInstance, ctx: AppContext): void {
  const sweep = setInterval(() => {
    expireJobs(ctx).catch((err: unknown) => ctx.log.warn({ err }, 'import job sweep failed'));
  }, SWEEP_MS);
  sweep.unref();
  // A database that is not there at start must not keep the server from serving: the same check runs again
  // whenever somebody looks at a job.
  app.addHook('onReady', async () => {
    await failInterruptedJobs(ctx).catch((err: unknown) =>
      ctx.log.warn({ err }, 'could not fail the import jobs a stop interrupted'),
    );
  });
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await stopImports();
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyImport/:tableId/template',
    access: 'loggedIn',
    raw: true,
    summary: 'The import template of a form (.xlsx: field headers with rules in notes, drop-down lists)',
    tags: TAGS,
    params: importTableParamsSchema,
    response: z.unknown(),
    handler: ({ params, req, reply, locale }) =>
      importTemplate(ctx, req.user as AuthUser, params.tableId, locale, reply),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyImport/:tableId/upload',
    access: 'loggedIn',
    summary:
      'Upload a filled workbook (multipart `file`, optional `periodId`): starts a check job and answers its id',
    tags: TAGS,
    params: importTableParamsSchema,
    response: importUploadResultSchema,
    handler: ({ params, req, locale }) =>
      uploadImport(ctx, req.user as AuthUser, params.tableId, req, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyImport/job/:jobId',
    access: 'loggedIn',
    summary: 'An import job: progress, counts, the first errors',
    tags: TAGS,
    params: importJobParamsSchema,
    response: importJobSchema,
    handler: ({ params, req, locale }) => importJob(ctx, req.user as AuthUser, params.jobId, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyImport/job/:jobId/errors',
    access: 'loggedIn',
    raw: true,
    summary: 'The error workbook of a checked job: bad rows as uploaded, bad cells red with the reason',
    tags: TAGS,
    params: importJobParamsSchema,
    response: z.unknown(),
    handler: ({ params, req, reply }) => errorWorkbook(ctx, req.user as AuthUser, params.jobId, reply),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyImport/job/:jobId/confirm',
    access: 'loggedIn',
    summary: 'Write the valid rows of a checked job (one transaction, in the background; poll the job)',
    tags: TAGS,
    params: importJobParamsSchema,
    body: importConfirmInputSchema,
    response: importJobSchema,
    handler: ({ params, body, req, locale }) =>
      confirmImport(ctx, req.user as AuthUser, params.jobId, body?.submit ?? true, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyImport/job/:jobId/cancel',
    access: 'loggedIn',
    summary: 'Drop an import job and its staged rows',
    tags: TAGS,
    params: importJobParamsSchema,
    response: importJobSchema,
    handler: ({ params, req, locale }) => cancelImport(ctx, req.user as AuthUser, params.jobId, locale),
  });
}
