/**
 * Sign-in constants without schemas (SPEC §2 /login, §4, §7): the login page reads them, and so stays free
 * of zod and the schemas until after sign-in. `auth.ts` and `login-modes.ts` export them with their schemas.
 */

/** Login types: 1 plain code … 9 enterprise, 21 param (SPEC §4). */
export const LOGIN_TYPE_ENTERPRISE = 9;

/** The account type of enterprise (member) accounts, `ACCOUNT_TYPE.member`: their home is the enterprise portal. */
export const ACCOUNT_TYPE_MEMBER = 666;

/** An SMS code is 6 digits, valid 5 minutes, usable once, void after 5 wrong tries. */
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 300;
/** One SMS per phone and minute; the web's countdown button waits as long. */
export const SMS_RESEND_SECONDS = 60;
export const SMS_MAX_ATTEMPTS = 5;

/** A scan-login ticket lives 2 minutes; the desktop polls its status every 2 seconds. */
export const SCAN_LOGIN_TTL_SECONDS = 120;
export const SCAN_LOGIN_POLL_MS = 2000;
/** The phone-side page the QR code points to. */
export const SCAN_LOGIN_PATH = '/scanLogin';
