import { existsSync, statSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors/app-error.ts';

const API_PREFIXES = ['/api/', '/swagger', '/health', '/ready'];

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || accept.includes('*/*') || accept === '';
}

/**
 * Serves the built web app: files of WEB_DIST as they are, and index.html for any other page path so the
 * client router takes over. API paths never fall back: they answer the envelope 404.
 */
export async function installWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const root = normalize(webDist);
  const hasApp = existsSync(join(root, 'index.html'));
  if (hasApp) {
    // No routes from the plugin: files are looked up in the not-found handler below, so every route the
    // app has is one of ours with an access declaration. The build leaves brotli and gzip copies beside each
    // file (apps/web/vite.config.ts): the one the browser accepts is sent, with `Vary: Accept-Encoding`.
    // Cache-Control is ours alone (the plugin's own `public, max-age=0` overwrote it).
    await app.register(fastifyStatic, {
      root,
      serve: false,
      decorateReply: true,
      preCompressed: true,
      cacheControl: false,
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const path = decodeURIComponent((request.url.split('?')[0] ?? '/').replace(/\/+/g, '/'));
    const isApi = API_PREFIXES.some(
      (prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix),
    );
    if (!hasApp || isApi || (request.method !== 'GET' && request.method !== 'HEAD')) throw new HttpError(404);

    const file = normalize(join(root, path));
    if (file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) {
      const immutable = path.startsWith('/assets/');
      return reply
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .sendFile(path.slice(1), root);
    }
    if (!acceptsHtml(request) || /\.[a-z0-9]+$/i.test(path)) throw new HttpError(404);
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .sendFile('index.html', root);
  });
}
