import { type Locale, pickLocale } from '@shuzhi/contracts/i18n';
import type { FastifyRequest } from 'fastify';

export function localeOf(request: FastifyRequest): Locale {
  const header = request.headers['accept-language'];
  return pickLocale(Array.isArray(header) ? header[0] : header);
}
