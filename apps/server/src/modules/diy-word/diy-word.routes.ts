import { addResultSchema, idParamsSchema } from '@shuzhi/contracts/crud';
import {
  WORD_TEMPLATE_MAX_BYTES,
  type WordSourceKind,
  wordBatchInputSchema,
  wordBulletinInputSchema,
  wordDeleteInputSchema,
  wordFieldsInputSchema,
  wordFieldsSchema,
  wordListInputSchema,
  wordOutputSchema,
  wordRecordInputSchema,
  wordSourceSchema,
  wordTemplateSchema,
} from '@shuzhi/contracts/diy-word';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { registerBelongReader } from '../../platform/files/belong.ts';
import { failure } from '../../platform/http/envelope.ts';
import { withUpload } from '../../platform/http/multipart.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { recordFileReadable } from '../diy-data/diy-record-files.ts';
import { WordPlaceholderError } from './word-docx.ts';
import { generateBulletin, generateForPeriod, generateForRecord, listOutputs } from './word-generate.ts';
import {
  deleteTemplates,
  listTemplates,
  sendTemplate,
  uploadTemplate,
  WORD_FILE_PREFIX,
  wordFields,
  wordSources,
} from './word-templates.ts';

const ID_PATH = '(^\\d+$)';
const TAGS = ['diyWord'];

/** W1003 carries the placeholders that name nothing in the envelope's `errors.placeholders`. */
async function withPlaceholderErrors<T>(
  reply: FastifyReply,
  locale: Locale,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof WordPlaceholderError)) throw error;
    const message = businessMessage('W1003', locale, error.params);
    return reply.status(200).send(failure('W1003', message, { placeholders: error.names }));
  }
}

/**
 * Word documents (issue 21 §3, docs/word-documents.md): `.docx` templates per form, roll-up or query report
 * (`/api/diyWord/list|fields|sources|upload|delete`, the template file), generation of a record's document, a
 * period's documents (one .zip) and a bulletin (`/api/diyWord/{id}/record|batch|bulletin`), and the generated
 * files of a template (`/api/diyWord/{id}/outputs`, downloaded through `/api/sysFile/download/{fileId}`).
 */
export function diyWordRoutes(app: FastifyInstance, ctx: AppContext): void {
  const me = (req: { user: AuthUser | null }) => req.user as AuthUser;
  // A record's generated document is the record's file: whoever may read the record reads it.
  registerBelongReader(WORD_FILE_PREFIX, (c, caller, file) =>
    recordFileReadable(c, caller, {
      ...file,
      file_type: `diy:${file.file_type?.slice(WORD_FILE_PREFIX.length) ?? ''}`,
    }),
  );

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyWord/list',
    access: 'diyWord:page',
    summary: 'Word documents: the templates of the tenant over sources the caller may open',
    tags: TAGS,
    query: wordListInputSchema,
    response: z.array(wordTemplateSchema),
    handler: ({ query, req }) => listTemplates(ctx, me(req), query),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyWord/sources',
    access: 'diyWord:page',
    summary: 'Word documents: the forms, roll-ups and query reports the caller may make templates for',
    tags: TAGS,
    response: z.array(wordSourceSchema),
    handler: async ({ req }) =>
      (await wordSources(ctx, me(req))).map((s) => ({ ...s, sourceKind: s.sourceKind as WordSourceKind })),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/diyWord/fields',
    access: 'diyWord:page',
    summary: 'Word documents: the placeholder names a template of the source may use (help for writers)',
    tags: TAGS,
    query: wordFieldsInputSchema,
    response: wordFieldsSchema,
    handler: ({ query, req, locale }) => wordFields(ctx, me(req), query.tableId, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyWord/upload',
    access: 'diyWord:add',
    summary:
      'Word documents: upload a .docx template (multipart `file`; fields tableId, name, remark). A broken .docx: ' +
      'W1002; unpacking past the limits: W1004; placeholders naming no field: W1003 with errors.placeholders',
    tags: TAGS,
    response: addResultSchema,
    handler: ({ req, reply, locale }) =>
      withPlaceholderErrors(reply, locale, () =>
        withUpload(req, WORD_TEMPLATE_MAX_BYTES, (upload) => uploadTemplate(ctx, me(req), upload, locale)),
      ),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/diyWord/delete',
    access: 'diyWord:delete',
    summary: 'Word documents: delete templates (their generated files stay)',
    tags: TAGS,
    body: wordDeleteInputSchema,
    response: z.null(),
    handler: async ({ body, req }) => {
      await deleteTemplates(ctx, me(req), body.ids);
      return null;
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyWord/:id${ID_PATH}/template`,
    access: 'diyWord:page',
    raw: true,
    summary: 'Word documents: download the template .docx',
    tags: TAGS,
    params: idParamsSchema,
    response: z.unknown(),
    handler: ({ params, req, reply }) => sendTemplate(ctx, me(req), params.id, reply),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyWord/:id${ID_PATH}/record`,
    access: 'diyWord:generate',
    summary: 'Word documents: the document of one record (a form’s template), kept as a file of the record',
    tags: TAGS,
    params: idParamsSchema,
    body: wordRecordInputSchema,
    response: wordOutputSchema,
    handler: ({ params, body, req, locale }) =>
      generateForRecord(ctx, me(req), params.id, body.recordId, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyWord/:id${ID_PATH}/batch`,
    access: 'diyWord:generate',
    summary: 'Word documents: one document per unit for a period (a form’s template), in one .zip',
    tags: TAGS,
    params: idParamsSchema,
    body: wordBatchInputSchema,
    response: wordOutputSchema,
    handler: ({ params, body, req, locale }) =>
      generateForPeriod(ctx, me(req), params.id, body.periodId, locale),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: `/api/diyWord/:id${ID_PATH}/bulletin`,
    access: 'diyWord:generate',
    summary:
      'Word documents: a bulletin from a roll-up (period, last period, change) or a query report’s rows',
    tags: TAGS,
    params: idParamsSchema,
    body: wordBulletinInputSchema,
    response: wordOutputSchema,
    handler: ({ params, body, req, locale }) => generateBulletin(ctx, me(req), params.id, body, locale),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: `/api/diyWord/:id${ID_PATH}/outputs`,
    access: 'diyWord:page',
    summary: 'Word documents: the template’s generated files the caller may read, newest first',
    tags: TAGS,
    params: idParamsSchema,
    response: z.array(wordOutputSchema),
    handler: ({ params, req }) => listOutputs(ctx, me(req), params.id),
  });
}
