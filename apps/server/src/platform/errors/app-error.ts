import type { BusinessErrorCode, PlatformErrorCode } from '@shuzhi/contracts/errors';
import type { Localized } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';

/** Message parameters; a Localized one is shown in the request's language (a field's name, say). */
export type MessageParams = Record<string, string | number | Localized>;

/**
 * A business error from the catalogue: envelope code = the catalogue code, HTTP 200 unless `status` says
 * otherwise (the login-free routes answer 401, 403, 409 or 429 with their N codes, docs/no-login.md).
 */
export class AppError extends Error {
  constructor(
    readonly code: BusinessErrorCode,
    readonly params?: MessageParams,
    readonly status: 200 | 401 | 403 | 409 | 429 = 200,
  ) {
    super(code);
    this.name = 'AppError';
  }
}

/** A platform outcome (401, 403, 404, 429…): HTTP status = envelope code, optional response headers. */
export class HttpError extends Error {
  constructor(
    readonly status: PlatformErrorCode,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(status));
    this.name = 'HttpError';
  }
}

export type RequestPart = 'body' | 'querystring' | 'params' | 'headers';

/** Request validation failed: envelope code 400 with field errors. */
export class ValidationError extends Error {
  readonly statusCode = 400;
  constructor(
    readonly issues: readonly z.core.$ZodIssue[],
    readonly part: RequestPart,
  ) {
    super('validation failed');
    this.name = 'ValidationError';
  }
}

/** The header that tells Admin.NET-family clients to drop their tokens. */
export const INVALID_TOKEN_HEADERS = { 'access-token': 'invalid_token' } as const;

export const unauthorized = (dropTokens = false) =>
  new HttpError(401, dropTokens ? { ...INVALID_TOKEN_HEADERS } : {});
