import {
  fileDownloadInputSchema,
  fileIdParamsSchema,
  fileListByBelongQuerySchema,
  filePageInputSchema,
  fileRowSchema,
  fileUpdateInputSchema,
} from '@shuzhi/contracts/file';
import { uploadedFileSchema } from '@shuzhi/contracts/user-center';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import type { AppContext } from '../../platform/context.ts';
import { defineCrud } from '../../platform/crud/crud.ts';
import { readableFile, sendStoredFile } from '../../platform/files/storage.ts';
import { withUpload } from '../../platform/http/multipart.ts';
import { defineRoute } from '../../platform/http/route.ts';
import {
  filesOfRecord,
  refuseFilesInUse,
  removeDeletedFiles,
  renamed,
  uploadFile,
  uploadLimits,
} from './file.service.ts';

const TAGS = ['sysFile'];

/**
 * `/api/sysFile/…` (issue 4 §5): `uploadFile` for every signed-in user (form attachments), downloads by id
 * under the original name, the files of a record, and file management through the CRUD factory — the
 * tenant's files inside the caller's data scope (`create_org_id`), rename, delete (row and stored file).
 * `preview/{id}`, `uploadAvatar` and `uploadSignature` live in the user centre.
 */
export function fileRoutes(app: FastifyInstance, ctx: AppContext): void {
  defineCrud(app, ctx, {
    resource: 'sysFile',
    table: 'sys_file',
    tenant: true,
    ownOrg: true,
    title: { 'zh-CN': '文件', en: 'Files', 'zh-TW': '檔案' },
    item: fileRowSchema,
    page: filePageInputSchema,
    filters: {
      fileName: { like: 'file_name' },
      suffix: { eq: 'suffix' },
      fileType: { eq: 'file_type' },
      createTime: { range: 'create_time' },
      belongId: { eq: 'belong_id' },
    },
    sortable: ['fileName', 'suffix', 'size', 'fileType', 'createTime', 'createUserName'],
    omit: ['add'],
    update: fileUpdateInputSchema,
    batchDelete: true,
    hooks: {
      beforeUpdate({ input, values, row }) {
        if (input.fileName !== undefined) values.file_name = renamed(input.fileName, row.suffix);
      },
      async beforeDelete({ trx, rows }) {
        await refuseFilesInUse(
          trx,
          rows.map((r) => r.id),
        );
      },
      async afterChange({ ctx, action, ids }) {
        if (action === 'delete') await removeDeletedFiles(ctx, ids);
      },
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysFile/uploadFile',
    access: 'loggedIn',
    summary:
      'Upload a file (multipart `file`; fields fileType, belongId, isPublic, remark): suffix allowed by sys_file_allowed_types, content matching the suffix, at most sys_file_max_size_mb',
    tags: TAGS,
    response: uploadedFileSchema,
    handler: async ({ ctx, req }) => {
      const limits = await uploadLimits(ctx);
      return withUpload(req, limits.maxBytes, (upload) => uploadFile(ctx, currentUser(req), upload, limits));
    },
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysFile/download/:id',
    access: 'loggedIn',
    raw: true,
    summary: 'Download a file the caller may read, under its original name',
    tags: TAGS,
    params: fileIdParamsSchema,
    response: z.any(),
    handler: async ({ ctx, req, reply, params }) =>
      sendStoredFile(ctx, reply, await readableFile(ctx, currentUser(req), params.id), 'attachment'),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysFile/downloadFile',
    access: 'loggedIn',
    raw: true,
    summary: 'Download a file the caller may read, under its original name (Admin.NET: body {id}, blob)',
    tags: TAGS,
    body: fileDownloadInputSchema,
    response: z.any(),
    handler: async ({ ctx, req, reply, body }) =>
      sendStoredFile(ctx, reply, await readableFile(ctx, currentUser(req), body.id), 'attachment'),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysFile/listByBelong',
    access: 'loggedIn',
    summary: 'The files attached to a record (belongId, optionally of one fileType) that the caller may read',
    tags: TAGS,
    query: fileListByBelongQuerySchema,
    response: z.array(fileRowSchema),
    handler: ({ ctx, req, query }) => filesOfRecord(ctx, currentUser(req), query.belongId, query.fileType),
  });
}
