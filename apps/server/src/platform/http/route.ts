import { envelopeSchema } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { RouteAccess } from '@shuzhi/contracts/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../context.ts';
import { JSON_CONTENT_TYPE, SerializedResult, success } from './envelope.ts';
import { localeOf } from './locale.ts';

export type RateLimitName = 'captcha' | 'login';

const RATE_WINDOW_MS = 60_000;

export type RouteArgs<Q, B, P> = {
  ctx: AppContext;
  req: FastifyRequest;
  reply: FastifyReply;
  query: Q;
  body: B;
  params: P;
  /** The caller; null only on public routes. */
  user: AuthUser | null;
  locale: Locale;
};

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteSpec<
  Q extends Schema | undefined,
  B extends Schema | undefined,
  P extends Schema | undefined,
  R extends Schema,
> = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  access: RouteAccess;
  summary: string;
  tags: string[];
  query?: Q;
  body?: B;
  params?: P;
  /** Schema of `result` (the envelope is added by the platform), or of the raw body for `raw` routes. */
  response: R;
  /** Sends the handler's value as is (health checks, images) instead of wrapping it in the envelope. */
  raw?: boolean;
  limit?: RateLimitName;
  /** Largest body accepted, in bytes (the server's default otherwise); a larger one is a 413. */
  bodyLimit?: number;
  /**
   * Returns the result, a `SerializedResult` of it (hot cached answers), or the reply itself when it already
   * sent something else (a redirect).
   */
  handler: (
    args: RouteArgs<Out<Q>, Out<B>, Out<P>>,
  ) => Promise<z.input<R> | SerializedResult | FastifyReply> | z.input<R> | SerializedResult | FastifyReply;
};

/**
 * Registers a route: schemas for validation and OpenAPI, the access declaration, and the envelope applied
 * here once, so route handlers only return their result.
 */
export function defineRoute<
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  R extends Schema = Schema,
>(app: FastifyInstance, ctx: AppContext, spec: RouteSpec<Q, B, P, R>): void {
  const schema: FastifySchema = {
    summary: spec.summary,
    tags: spec.tags,
    ...(spec.query ? { querystring: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    response: { 200: spec.raw ? spec.response : envelopeSchema(spec.response) },
  };
  app.route({
    method: spec.method,
    url: spec.url,
    config: {
      access: spec.access,
      ...(spec.limit
        ? { rateLimit: { max: ctx.config.rateLimit[spec.limit], timeWindow: RATE_WINDOW_MS } }
        : {}),
    },
    schema,
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
    handler: (req: FastifyRequest, reply: FastifyReply): unknown => {
      const result = spec.handler({
        ctx,
        req,
        reply,
        query: req.query as Out<Q>,
        body: req.body as Out<B>,
        params: req.params as Out<P>,
        user: req.user,
        locale: localeOf(req),
      });
      // A cached answer comes back synchronously and is sent without a promise in between.
      if (result instanceof SerializedResult) {
        sendSerialized(reply, result, spec.raw);
        return undefined;
      }
      return Promise.resolve(result).then((value) => {
        // The handler answered itself (a redirect, field errors): one reply only. Its value is not the reply
        // to compare with, since a reply is thenable and an async function returning it resolves to undefined.
        if (reply.sent) return undefined;
        if (value instanceof SerializedResult) return sendSerialized(reply, value, spec.raw);
        return spec.raw ? value : success(value);
      });
    },
  });
}

/** Same bytes as the serialised envelope, without serialising again. */
function sendSerialized(
  reply: FastifyReply,
  result: SerializedResult,
  raw: boolean | undefined,
): FastifyReply {
  reply.header('content-type', JSON_CONTENT_TYPE);
  return reply.send(raw ? Buffer.from(result.json) : result.envelope());
}

export type RouteModule = (app: FastifyInstance, ctx: AppContext) => void;
