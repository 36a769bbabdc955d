import { z } from 'zod';
import { SMS_CODE_LENGTH } from './sign-in.ts';
import { MOBILE_PATTERN } from './validators.ts';

/**
 * Sign-in modes besides account and password (SPEC §2 /login, §4, §7): mobile number with an SMS code, scan
 * with a signed-in phone, and automatic login by URL parameter through an identity provider.
 */

export {
  SCAN_LOGIN_PATH,
  SCAN_LOGIN_TTL_SECONDS,
  SMS_CODE_LENGTH,
  SMS_CODE_TTL_SECONDS,
  SMS_MAX_ATTEMPTS,
  SMS_RESEND_SECONDS,
} from './sign-in.ts';

const phone = z.string().trim().regex(MOBILE_PATTERN);

export const sendSmsCodeInputSchema = z.object({ phone });

export const loginPhoneInputSchema = z.object({
  phone,
  code: z
    .string()
    .trim()
    .regex(new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`)),
});
export type LoginPhoneInput = z.infer<typeof loginPhoneInputSchema>;

const SCAN_STATUSES = ['waiting', 'scanned', 'confirmed', 'expired'] as const;

export const scanLoginCreateResultSchema = z.object({
  id: z.string(),
  /** Relative web URL of the phone-side page (`/scanLogin?id=…`); the desktop makes it absolute for the QR code. */
  url: z.string(),
  expireSeconds: z.number(),
});
export type ScanLoginCreateResult = z.infer<typeof scanLoginCreateResultSchema>;

export const scanLoginIdSchema = z.object({ id: z.string().trim().min(16).max(64) });

export const scanLoginStatusSchema = z.object({
  status: z.enum(SCAN_STATUSES),
  /** Who scanned (after the scan). */
  realName: z.string().optional(),
  /** The desktop's new session: handed out once, on the first status read after the confirmation. */
  accessToken: z.string().optional(),
  refreshToken: z.string().optional(),
  isDefPwd: z.boolean().optional(),
  isUpdatePwd: z.boolean().optional(),
});
export type ScanLoginStatus = z.infer<typeof scanLoginStatusSchema>;

/** Automatic login types (SPEC §4): the URL parameter that carries the credential decides the type. */
export const AUTO_LOGIN_TYPES = [1, 3, 4, 5, 6, 8, 9, 10, 21] as const;

export const autoLoginInputSchema = z.object({
  code: z.string().trim().min(1).max(4096),
  type: z.coerce.number().int().min(0).max(999),
  paramName: z.string().trim().max(64).optional().nullable(),
  /** Type 9: the enterprise's unified social credit code. */
  usi: z.string().trim().max(64).optional().nullable(),
});
export type AutoLoginInput = z.infer<typeof autoLoginInputSchema>;
