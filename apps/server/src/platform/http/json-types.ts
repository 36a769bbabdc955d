import type { FastifyInstance } from 'fastify';

/**
 * Media types read as JSON besides `application/json`: the family's generated clients send
 * `application/json-patch+json` on every POST and PUT, some integrations `text/json`, and any structured
 * `application/<name>+json` is JSON by RFC 6839. Parsed by Fastify's own JSON parser, so the body limit and the
 * prototype-poisoning refusal are the same as for `application/json`.
 */
const STRUCTURED_JSON = /^application\/[\w.-]+\+json(?:\s*;|$)/i;

export function installJsonMediaTypes(app: FastifyInstance): void {
  const parser = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('text/json', { parseAs: 'string' }, parser);
  app.addContentTypeParser(STRUCTURED_JSON, { parseAs: 'string' }, parser);
}
