import { z } from 'zod';

const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 16;
const STRONG_PASSWORD_MIN_LENGTH = 12;

const STRONG_SYMBOLS = /[~!@#$%^&.*]/;

/**
 * Checks a new password: 6–16 characters; when `sys_password_strong` is on, 12–16 characters mixing at
 * least three of letters, digits and the symbols ~!@#$%^&.* (SPEC §5). Returns the failed rule or null.
 */
export function checkPassword(password: string, strong: boolean): 'length' | 'strong' | null {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) return 'length';
  if (!strong) return null;
  if (password.length < STRONG_PASSWORD_MIN_LENGTH) return 'strong';
  const kinds = [/[A-Za-z]/, /\d/, STRONG_SYMBOLS].filter((re) => re.test(password)).length;
  return kinds >= 3 ? null : 'strong';
}

/** `POST /api/sysUser/changePwd`: both passwords SM2-encrypted like the login password. */
export const changePwdInputSchema = z.object({
  passwordOld: z.string().min(1).max(4096),
  passwordNew: z.string().min(1).max(4096),
});
export type ChangePwdInput = z.infer<typeof changePwdInputSchema>;
