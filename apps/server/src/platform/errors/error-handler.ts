import { PLATFORM_ERRORS, type PlatformErrorCode } from '@shuzhi/contracts/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { recordException } from '../audit/audit.ts';
import { isDatabaseUnavailable } from '../db/db.ts';
import { failure } from '../http/envelope.ts';
import { localeOf } from '../http/locale.ts';
import { AppError, HttpError, ValidationError } from './app-error.ts';
import { businessMessage, platformMessage, validationErrors } from './messages.ts';

const MAX_MESSAGES_IN_SUMMARY = 3;
/** What a 503 during a database outage suggests to clients and load balancers. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

function sendPlatform(reply: FastifyReply, request: FastifyRequest, status: PlatformErrorCode, headers = {}) {
  return reply
    .status(status)
    .headers(headers)
    .send(failure(status, platformMessage(status, localeOf(request))));
}

function isPlatformStatus(status: number): status is PlatformErrorCode {
  return status in PLATFORM_ERRORS;
}

/**
 * The one place errors become envelopes (docs/wire.md): business codes and validation with HTTP 200,
 * platform outcomes with their status, a database outage as 503, faults as 500 with a trace id and the
 * details only in the log.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    const locale = localeOf(request);
    if (error instanceof AppError) {
      return reply
        .status(error.status)
        .send(failure(error.code, businessMessage(error.code, locale, error.params)));
    }
    if (error instanceof ValidationError) {
      const errors = validationErrors(error.issues, error.part, locale);
      const summary = Object.values(errors).flat().slice(0, MAX_MESSAGES_IN_SUMMARY).join('; ');
      return reply.status(200).send(failure(400, summary || platformMessage(400, locale), errors));
    }
    if (error instanceof HttpError) return sendPlatform(reply, request, error.status, error.headers);

    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 400) {
      // Malformed JSON and similar body errors: same shape as a validation failure.
      const message = platformMessage(400, locale);
      return reply.status(200).send(failure(400, message, { body: [message] }));
    }
    if (status > 400 && status < 500) {
      return sendPlatform(reply, request, isPlatformStatus(status) ? status : 400);
    }

    if (isDatabaseUnavailable(error)) {
      // An outage, not a fault of this request: no exception log row (it could not be written anyway).
      request.log.warn({ err: error }, 'database unavailable');
      return sendPlatform(reply, request, 503, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
    }

    const traceId = request.id;
    request.log.error({ err: error, traceId }, 'request failed');
    recordException(app.ctx, request, error, traceId);
    return reply
      .status(500)
      .header('x-trace-id', traceId)
      .send(failure(500, platformMessage(500, locale, { traceId })));
  });
}
