import { z } from 'zod';
import { captchaIdSchema } from './auth.ts';
import { formDesignSchema } from './diy-form.ts';
import { idSchema, pageInputSchema, pageResultSchema } from './envelope.ts';

/**
 * Login-free links (issue 22 §1, docs/no-login.md). Staff publish a link or QR code carrying a signed, expiring,
 * scoped code (`/api/sysNoLoginLink/*`); the page exchanges it for a short-lived scoped token
 * (`POST /api/noLogin/token`) and calls the `…ByNoLogin` routes with it in the `X-NoLogin-Token` header.
 */

/** The header carrying the scoped token on the `…ByNoLogin` routes. */
export const NO_LOGIN_TOKEN_HEADER = 'x-nologin-token';
/** The landing page of a printed link. */
export const SCANCODE_PATH = '/scancode';

/** What a link opens: a form (to fill, or its records to look at) or one record. */
const NO_LOGIN_QR_TYPES = ['form', 'record'] as const;
export type NoLoginQrType = (typeof NO_LOGIN_QR_TYPES)[number];
/** What it may do: look (view), file one record in all (fillOne), file records until used up (fillMany). */
const NO_LOGIN_MODES = ['view', 'fillOne', 'fillMany'] as const;
export type NoLoginMode = (typeof NO_LOGIN_MODES)[number];
/** A link's state as staff see it. */
const NO_LOGIN_STATES = ['active', 'expired', 'revoked', 'usedUp'] as const;
export type NoLoginState = (typeof NO_LOGIN_STATES)[number];
/** What a use of a link did (the use log). */
const NO_LOGIN_ACTIONS = ['open', 'view', 'list', 'add', 'update', 'refused'] as const;
export type NoLoginAction = (typeof NO_LOGIN_ACTIONS)[number];

/** How long a link may live, in days; and the uses it may be given. */
export const NO_LOGIN_MAX_DAYS = 366;
export const NO_LOGIN_MAX_USES = 1_000_000;

export const noLoginAddInputSchema = z
  .object({
    title: z.string().trim().min(1).max(64),
    qrType: z.enum(NO_LOGIN_QR_TYPES),
    tableId: idSchema,
    /** The record of a `record` link. */
    recordId: idSchema.optional(),
    mode: z.enum(NO_LOGIN_MODES),
    days: z.coerce.number().int().min(1).max(NO_LOGIN_MAX_DAYS),
    /** Uses allowed (records filed; openings for view links); absent: no limit. `fillOne` is always 1. */
    maxUses: z.coerce.number().int().min(1).max(NO_LOGIN_MAX_USES).optional(),
    remark: z.string().trim().max(256).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.qrType === 'record' && input.recordId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['recordId'], message: 'required' });
    }
    if (input.qrType === 'record' && input.mode === 'fillMany') {
      ctx.addIssue({ code: 'custom', path: ['mode'], message: 'fillMany' });
    }
  });
export type NoLoginAddInput = z.input<typeof noLoginAddInputSchema>;

export const noLoginLinkSchema = z.object({
  id: z.number(),
  title: z.string(),
  qrType: z.enum(NO_LOGIN_QR_TYPES),
  tableId: z.number(),
  tableTitle: z.string().nullable(),
  recordId: z.number().nullable(),
  mode: z.enum(NO_LOGIN_MODES),
  expireTime: z.string(),
  maxUses: z.number().nullable(),
  useCount: z.number(),
  state: z.enum(NO_LOGIN_STATES),
  remark: z.string().nullable(),
  /** The landing page's path with its query (`/scancode?QrCodeType=form&code=…`); the browser adds its origin. */
  url: z.string(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
  revokeTime: z.string().nullable(),
});
export type NoLoginLink = z.infer<typeof noLoginLinkSchema>;

export const noLoginPageInputSchema = pageInputSchema.extend({
  title: z.string().trim().max(64).optional(),
  tableId: idSchema.optional(),
});
export const noLoginPageSchema = pageResultSchema(noLoginLinkSchema);

const noLoginUseSchema = z.object({
  id: z.number(),
  linkId: z.number(),
  action: z.enum(NO_LOGIN_ACTIONS),
  recordId: z.number().nullable(),
  /** The refusal's catalogue code, for `refused`. */
  code: z.string().nullable(),
  ip: z.string(),
  userAgent: z.string().nullable(),
  createTime: z.string(),
});
export type NoLoginUse = z.infer<typeof noLoginUseSchema>;
export const noLoginUsesInputSchema = pageInputSchema.extend({ linkId: idSchema });
export const noLoginUsesPageSchema = pageResultSchema(noLoginUseSchema);

export const noLoginQrInputSchema = z.object({
  id: idSchema,
  format: z.enum(['png', 'svg']).default('svg'),
});
/** The links of a printable sheet (at most 60, in the order given). */
const NO_LOGIN_SHEET_MAX = 60;
export const noLoginSheetInputSchema = z.object({
  ids: z
    .string()
    .max(2000)
    .transform((text) =>
      [...new Set(text.split(',').map(Number))].filter((n) => Number.isSafeInteger(n) && n > 0),
    )
    .pipe(z.array(z.number()).min(1).max(NO_LOGIN_SHEET_MAX)),
});
export const noLoginSheetItemSchema = z.object({
  id: z.number(),
  title: z.string(),
  url: z.string(),
  expireTime: z.string(),
  /** The QR code as an SVG document. */
  svg: z.string(),
});
export type NoLoginSheetItem = z.infer<typeof noLoginSheetItemSchema>;

/** `POST /api/noLogin/token`: the code of a link for a scoped token. */
export const noLoginTokenInputSchema = z.object({ code: z.string().min(1).max(256) });
const noLoginScopeSchema = z.object({
  linkId: z.number(),
  title: z.string(),
  qrType: z.enum(NO_LOGIN_QR_TYPES),
  mode: z.enum(NO_LOGIN_MODES),
  tableId: z.number(),
  tableTitle: z.string(),
  recordId: z.number().nullable(),
  expireTime: z.string(),
  /** Uses left (null: no limit). */
  usesLeft: z.number().nullable(),
});
export type NoLoginScope = z.infer<typeof noLoginScopeSchema>;
export const noLoginTokenSchema = z.object({
  token: z.string(),
  /** Seconds the token stays valid. */
  expiresIn: z.number(),
  scope: noLoginScopeSchema,
});
export type NoLoginToken = z.infer<typeof noLoginTokenSchema>;

/** The public view of a form (its value fields: no rules, formulas or defaults beyond what filling needs). */
export const noLoginDesignSchema = z.object({
  tableId: z.number(),
  title: z.string(),
  design: formDesignSchema,
});
export type NoLoginDesign = z.infer<typeof noLoginDesignSchema>;
/** A record as a stranger sees it. */
export const noLoginRecordSchema = z.object({
  id: z.number(),
  dataNo: z.string().nullable(),
  values: z.record(z.string(), z.unknown()),
  labels: z.record(z.string(), z.string()),
  createTime: z.string(),
});
export type NoLoginRecord = z.infer<typeof noLoginRecordSchema>;
export const noLoginRecordPageSchema = pageResultSchema(noLoginRecordSchema);
export const noLoginRecordPageInputSchema = pageInputSchema.extend({ tableId: idSchema });
export const noLoginListInputSchema = z.object({ tableId: idSchema });
/** `POST /api/diyData/addByNoLogin` and `PUT /api/diyData/updateDataByNoLogin/{id}`: values to file. */
export const noLoginSaveInputSchema = z.object({
  tableId: idSchema,
  values: z.record(z.string(), z.unknown()),
  /**
   * A solved captcha (`GET /api/sysAuth/captcha`'s id and the text typed), needed only after repeated
   * submissions from one IP through one link (N1040 without it, N1041 when wrong).
   */
  codeId: captchaIdSchema,
  code: z.string().max(16).optional().nullable(),
});
export const noLoginAddResultSchema = z.object({ id: z.number(), dataNo: z.string().nullable() });
