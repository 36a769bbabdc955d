import { z } from 'zod';
import { auditFieldsSchema, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';

/** A signed call's timestamp may differ from the server's clock by this much (seconds). */
export const OPEN_ACCESS_TIMESTAMP_WINDOW_SECONDS = 5 * 60;
/** A nonce is remembered (and refused when seen again) this long (seconds). */
export const OPEN_ACCESS_NONCE_TTL_SECONDS = 10 * 60;

/**
 * What is signed: `{METHOD}&{path}&{accessKey}&{timestamp}&{nonce}`; the path starts with `/api`, has no
 * host and no query string. `sign = Base64(HMAC-SHA256(secret, text))`.
 */
export function openAccessSignText(parts: {
  method: string;
  path: string;
  accessKey: string;
  timestamp: string | number;
  nonce: string;
}): string {
  return `${parts.method.toUpperCase()}&${parts.path}&${parts.accessKey}&${parts.timestamp}&${parts.nonce}`;
}

/** A row as the factory sees it: the columns, never the secret. */
export const openAccessRowSchema = z
  .object({
    id: z.number(),
    tenantId: z.number(),
    accessKey: z.string(),
    bindUserId: z.number(),
    status: z.number(),
    lastUsedTime: z.string().nullable(),
    remark: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);

/** A key as page, detail and export show it: with the bound user's account and name. */
export const openAccessItemSchema = openAccessRowSchema.extend({
  bindUserAccount: z.string().nullable(),
  bindUserRealName: z.string().nullable(),
  bindUserOrgName: z.string().nullable(),
});
export type OpenAccessItem = z.infer<typeof openAccessItemSchema>;

const remark = z.string().trim().max(256).nullable();

export const openAccessAddInputSchema = z.object({
  bindUserId: idSchema,
  status: statusSchema.default(1),
  remark: remark.optional(),
});
export type OpenAccessAddInput = z.input<typeof openAccessAddInputSchema>;

/** Fields left out keep their value; the key and the secret are never set by a client. */
export const openAccessUpdateInputSchema = z.object({
  id: idSchema,
  bindUserId: idSchema.optional(),
  remark: remark.optional(),
});

/** `page`, `list`, `export`: key contains, bound user (id, or account / name contains), status. */
export const openAccessPageInputSchema = pageInputSchema.extend({
  accessKey: filterText,
  bindUserId: filterNumber,
  bindUser: filterText,
  status: filterNumber,
});
export type OpenAccessPageInput = z.input<typeof openAccessPageInputSchema>;

/** The answer of `add` and `resetSecret`: the only time the secret leaves the server. */
export const openAccessSecretSchema = z.object({
  id: z.number(),
  accessKey: z.string(),
  accessSecret: z.string(),
});
export type OpenAccessSecret = z.infer<typeof openAccessSecretSchema>;

/** `GET /api/auth/token` (signed): a session for the key's bound user. */
export const openAccessTokenSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
});
export type OpenAccessToken = z.infer<typeof openAccessTokenSchema>;
