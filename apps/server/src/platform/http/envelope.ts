import type { Envelope } from '@shuzhi/contracts/envelope';
import { formatDateTime } from '../db/time.ts';

export function success<T>(result: T): Envelope<T> {
  return {
    code: 200,
    type: 'success',
    message: '',
    result,
    extras: null,
    time: formatDateTime(),
    errors: null,
  };
}

export function failure(
  code: number | string,
  message: string,
  errors: Record<string, string[]> | string | null = null,
): Envelope<null> {
  return { code, type: 'error', message, result: null, extras: null, time: formatDateTime(), errors };
}
