import type { FastifyInstance, FastifySchema } from 'fastify';
import { z } from 'zod';
import { type RequestPart, ValidationError } from '../errors/app-error.ts';

const PARTS: Record<string, RequestPart> = {
  body: 'body',
  querystring: 'querystring',
  params: 'params',
  headers: 'headers',
};

const MAX_HOSTILE_ISSUES = 10;

/**
 * What no schema lets through, whatever it declares (docs/security.md "Hostile input"): a NUL character in a
 * string (PostgreSQL text cannot hold it) and a number beyond the safe integers (a bigint column cannot, and
 * no figure of the product needs one). Walks the parsed value without recursion, so deep nesting is fine.
 */
export function hostileIssues(data: unknown): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const stack: { value: unknown; path: PropertyKey[] }[] = [{ value: data, path: [] }];
  while (stack.length > 0 && issues.length < MAX_HOSTILE_ISSUES) {
    const { value, path } = stack.pop() as { value: unknown; path: PropertyKey[] };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) {
        issues.push({ code: 'custom', path, message: 'nul', params: { nul: true }, input: value });
      }
    } else if (typeof value === 'number') {
      if (value > Number.MAX_SAFE_INTEGER) {
        issues.push({
          code: 'too_big',
          origin: 'number',
          maximum: Number.MAX_SAFE_INTEGER,
          inclusive: true,
          path,
          message: 'too big',
          input: value,
        });
      } else if (value < Number.MIN_SAFE_INTEGER) {
        issues.push({
          code: 'too_small',
          origin: 'number',
          minimum: Number.MIN_SAFE_INTEGER,
          inclusive: true,
          path,
          message: 'too small',
          input: value,
        });
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        stack.push({ value: item, path: [...path, key] });
      }
    }
  }
  return issues;
}

/**
 * Zod schemas validate requests (coercing and defaulting), then `hostileIssues` checks what they let through;
 * responses are plain JSON. Failures become a ValidationError that the error handler turns into field errors
 * in the request's language.
 */
export function installZodCompilers(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const zodSchema = schema as unknown as z.ZodType;
    const part = PARTS[httpPart ?? 'body'] ?? 'body';
    return (data: unknown) => {
      const parsed = zodSchema.safeParse(data, { reportInput: true });
      if (!parsed.success) return { error: new ValidationError(parsed.error.issues, part) };
      const hostile = hostileIssues(parsed.data);
      return hostile.length > 0 ? { error: new ValidationError(hostile, part) } : { value: parsed.data };
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
