import {
  BUSINESS_ERRORS,
  type BusinessErrorCode,
  PLATFORM_ERRORS,
  type PlatformErrorCode,
  VALIDATION_MESSAGES,
} from '@shuzhi/contracts/errors';
import { format, type Locale } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import type { MessageParams, RequestPart } from './app-error.ts';

export function businessMessage(code: BusinessErrorCode, locale: Locale, params?: MessageParams) {
  const texts = params
    ? Object.fromEntries(
        Object.entries(params).map(([key, value]) => [
          key,
          typeof value === 'object' ? value[locale] : value,
        ]),
      )
    : undefined;
  return format(BUSINESS_ERRORS[code][locale], texts);
}

export function platformMessage(
  status: PlatformErrorCode,
  locale: Locale,
  params?: Record<string, string | number>,
) {
  return format(PLATFORM_ERRORS[status][locale], params);
}

function issueMessage(issue: z.core.$ZodIssue, field: string, locale: Locale): string {
  const m = VALIDATION_MESSAGES;
  switch (issue.code) {
    case 'invalid_type':
      return format((issue.input === undefined || issue.input === null ? m.required : m.invalid)[locale], {
        field,
      });
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1 && issue.input === '') {
        return format(m.required[locale], { field });
      }
      return format(
        (issue.origin === 'string' || issue.origin === 'array' ? m.tooShort : m.tooSmall)[locale],
        {
          field,
          min: String(issue.minimum),
        },
      );
    case 'too_big':
      return format((issue.origin === 'string' || issue.origin === 'array' ? m.tooLong : m.tooBig)[locale], {
        field,
        max: String(issue.maximum),
      });
    case 'unrecognized_keys':
      return m.unknownField[locale];
    case 'custom':
      return format((issue.params?.nul === true ? m.nulCharacter : m.invalid)[locale], { field });
    default:
      return format(m.invalid[locale], { field });
  }
}

/** Field → messages, in the request's language. */
export function validationErrors(
  issues: readonly z.core.$ZodIssue[],
  part: RequestPart,
  locale: Locale,
): Record<string, string[]> {
  // Field names come from the request (unknown keys): `__proto__` or `constructor` are plain entries here.
  const errors: Record<string, string[]> = Object.create(null);
  const add = (field: string, message: string) => {
    const list = errors[field] ?? [];
    if (!list.includes(message)) list.push(message);
    errors[field] = list;
  };
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(path ? `${path}.${key}` : key, issueMessage(issue, key, locale));
      continue;
    }
    const field = path || (part === 'querystring' ? 'query' : part);
    add(field, issueMessage(issue, field, locale));
  }
  return errors;
}
