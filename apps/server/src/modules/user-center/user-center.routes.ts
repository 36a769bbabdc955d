import {
  AVATAR_MAX_BYTES,
  baseInfoSchema,
  checkOpPasswordInputSchema,
  SIGNATURE_MAX_BYTES,
  setOpPasswordInputSchema,
  updateBaseInfoInputSchema,
  uploadedFileSchema,
} from '@shuzhi/contracts/user-center';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentUser } from '../../platform/access/access.ts';
import { verifyOpPassword } from '../../platform/auth/op-password.ts';
import type { AppContext } from '../../platform/context.ts';
import { readableFile, sendStoredFile } from '../../platform/files/storage.ts';
import { withUpload } from '../../platform/http/multipart.ts';
import { defineRoute } from '../../platform/http/route.ts';
import { baseInfo, setOpPassword, updateBaseInfo, uploadUserImage } from './user-center.service.ts';

const fileIdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

/** The user centre (issue 3 §4): own profile, avatar and signature, operation password; serving files. */
export function userCenterRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userTags = ['sysUser'];
  const fileTags = ['sysFile'];

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysUser/baseInfo',
    access: 'loggedIn',
    summary: 'The own profile',
    tags: userTags,
    response: baseInfoSchema,
    handler: ({ ctx, req }) => baseInfo(ctx, currentUser(req)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/baseInfo',
    access: 'loggedIn',
    summary: 'Change the own profile (name, contact details, ID number, address, remark)',
    tags: userTags,
    body: updateBaseInfoInputSchema,
    response: z.literal(true),
    handler: ({ ctx, req, body }) => updateBaseInfo(ctx, currentUser(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/setOpPassword',
    access: 'loggedIn',
    summary: 'Set the own operation password (login password and new one SM2-encrypted)',
    tags: userTags,
    body: setOpPasswordInputSchema,
    response: z.literal(true),
    handler: ({ ctx, req, body }) => setOpPassword(ctx, currentUser(req), body),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysUser/checkOpPassword',
    access: 'loggedIn',
    summary:
      'Check the own operation password (SM2-encrypted): true, D1011 wrong, D1012 not set, D1033 from the 5th wrong in 30 minutes',
    tags: userTags,
    body: checkOpPasswordInputSchema,
    response: z.literal(true),
    handler: async ({ ctx, req, body }) => {
      await verifyOpPassword(ctx, currentUser(req), body.opPassword);
      return true as const;
    },
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysFile/uploadAvatar',
    access: 'loggedIn',
    summary: 'Upload the own avatar (multipart field `file`; PNG, JPEG or WebP)',
    tags: fileTags,
    response: uploadedFileSchema,
    handler: async ({ ctx, req }) =>
      withUpload(req, AVATAR_MAX_BYTES, (upload) => uploadUserImage(ctx, currentUser(req), 'avatar', upload)),
  });

  defineRoute(app, ctx, {
    method: 'POST',
    url: '/api/sysFile/uploadSignature',
    access: 'loggedIn',
    summary: 'Upload the own signature image (multipart field `file`; PNG, JPEG or WebP)',
    tags: fileTags,
    response: uploadedFileSchema,
    handler: async ({ ctx, req }) =>
      withUpload(req, SIGNATURE_MAX_BYTES, (upload) =>
        uploadUserImage(ctx, currentUser(req), 'signature', upload),
      ),
  });

  defineRoute(app, ctx, {
    method: 'GET',
    url: '/api/sysFile/preview/:id',
    access: 'loggedIn',
    raw: true,
    summary: 'A stored file, inline (avatars and signatures: any signed-in user of the tenant)',
    tags: fileTags,
    params: fileIdParamsSchema,
    response: z.any(),
    handler: async ({ ctx, req, reply, params }) =>
      sendStoredFile(ctx, reply, await readableFile(ctx, currentUser(req), params.id)),
  });
}
