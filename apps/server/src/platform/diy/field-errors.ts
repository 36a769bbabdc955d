import type { FastifyReply } from 'fastify';
import { failure } from '../http/envelope.ts';

const MAX_MESSAGES_IN_SUMMARY = 3;

/**
 * Field-level problems of a form design or a record: answered like a validation failure (envelope code 400,
 * `errors` keyed by field id or path, `message` the first few joined), with texts already in the request's
 * language. Thrown inside a transaction, it rolls the write back.
 */
export class FieldErrorsError extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super('field errors');
    this.name = 'FieldErrorsError';
  }
}

/** Runs a route's work and answers its FieldErrorsError as a validation failure. */
export async function withFieldErrors<T>(
  reply: FastifyReply,
  work: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof FieldErrorsError)) throw error;
    const summary = Object.values(error.errors).flat().slice(0, MAX_MESSAGES_IN_SUMMARY).join('; ');
    return reply.status(200).send(failure(400, summary, error.errors));
  }
}
