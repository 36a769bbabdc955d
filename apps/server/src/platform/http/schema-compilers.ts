import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import { type RequestPart, ValidationError } from '../errors/app-error.ts';

const PARTS: Record<string, RequestPart> = {
  body: 'body',
  querystring: 'querystring',
  params: 'params',
  headers: 'headers',
};

/**
 * Zod schemas validate requests (coercing and defaulting); responses are plain JSON. Failures become a
 * ValidationError that the error handler turns into field errors in the request's language.
 */
export function installZodCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zodSchema = schema as unknown as z.ZodType;
    const part = PARTS[httpPart ?? 'body'] ?? 'body';
    return (data: unknown) => {
      const parsed = zodSchema.safeParse(data, { reportInput: true });
      return parsed.success
        ? { value: parsed.data }
        : { error: new ValidationError(parsed.error.issues, part) };
    };
  });
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
}

function toJson(schema: unknown, io: 'input' | 'output'): unknown {
  if (!(schema instanceof z.ZodType)) return schema;
  const json = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
    unrepresentable: 'any',
    reused: 'inline',
  }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** @fastify/swagger transform: zod schemas of a route → OpenAPI schemas. */
export function zodToOpenApi({ schema: routeSchema, url }: { schema: FastifySchema; url: string }) {
  const schema = routeSchema as Record<string, unknown> | undefined;
  if (!schema) return { schema: routeSchema, url };
  const out: Record<string, unknown> = { ...schema };
  for (const part of ['body', 'querystring', 'params', 'headers']) {
    if (schema[part]) out[part] = toJson(schema[part], 'input');
  }
  if (schema.response && typeof schema.response === 'object') {
    out.response = Object.fromEntries(
      Object.entries(schema.response as Record<string, unknown>).map(([status, s]) => [
        status,
        toJson(s, 'output'),
      ]),
    );
  }
  return { schema: out as FastifySchema, url };
}
