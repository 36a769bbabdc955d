import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { AppContext } from '../context.ts';
import { HttpError } from '../errors/app-error.ts';

/**
 * Helmet's headers, computed once: they do not depend on the request, and building the middleware per
 * request (as @fastify/helmet does) costs more than the rest of a cached API call.
 */
function securityHeaders(frameAncestors: string[]): Record<string, string> {
  const options: HelmetOptions = {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // antd and the theme write inline styles.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        // File preview shows PDFs in a frame; the job dashboard is an embedded page.
        frameSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors,
        upgradeInsecureRequests: null,
      },
    },
    // Embedding modes (openType=iframenoheader) rely on frame-ancestors, not X-Frame-Options.
    xFrameOptions:
      frameAncestors.length === 1 && frameAncestors[0] === "'self'" ? { action: 'sameorigin' } : false,
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  };
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * JSON answers are never rendered or framed, so they need only these (OWASP REST Security); the full
 * helmet set goes with pages and files, where it matters. Fewer bytes per call keeps the hot API fast.
 */
const API_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
};

/**
 * CORS: only the configured origins (CORS_ORIGINS; none by default, so the app's own pages alone) may call
 * with credentials; echoing any origin would let every site a signed-in user visits read the API. The token
 * headers, and the file name of a download (exports), are readable by scripts of those origins.
 */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'];
const CORS_EXPOSED_HEADERS = ['access-token', 'x-access-token', 'x-trace-id', 'content-disposition'];
const CORS_EXPOSED = CORS_EXPOSED_HEADERS.join(', ');

/** Security headers, CORS for token headers, and the rate-limit plugin (routes opt in, keyed by IP). */
export async function installSecurity(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const documentHeaders = securityHeaders(ctx.config.frameAncestors);
  const allowed = new Set(ctx.config.corsOrigins);
  const corsOptions = {
    // false (not a list) for any other origin: the plugin then adds no CORS header at all, credentials included.
    origin: (origin: string | undefined, done: (error: Error | null, allow: boolean) => void) =>
      done(null, origin !== undefined && allowed.has(origin)),
    credentials: true,
    methods: CORS_METHODS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
  };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? API_HEADERS : documentHeaders);
    if (request.raw.method !== 'OPTIONS') {
      // Exactly what @fastify/cors adds to an actual request with corsOptions, without its per-request
      // option merging: Vary, and for an allowed origin the origin, credentials and the exposed headers.
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (origin && allowed.has(origin)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-allow-credentials', 'true');
        reply.header('access-control-expose-headers', CORS_EXPOSED);
      }
    }
    done();
  });
  // The CORS plugin answers preflights on its own `OPTIONS *` route: public by nature.
  app.addHook('onRoute', (route) => {
    if (route.method === 'OPTIONS' && route.url === '*') route.config = { ...route.config, access: 'public' };
  });
  // Preflights stay with the plugin; registered in a context of its own, its hook runs for its `OPTIONS *`
  // route only, while the hook above serves every other request.
  await app.register(async (preflight) => {
    await preflight.register(cors, corsOptions);
  });

  await app.register(rateLimit, {
    global: false,
    ...(ctx.cache.redis ? { redis: ctx.cache.redis, nameSpace: 'rl:' } : {}),
    errorResponseBuilder: () => new HttpError(429),
  });
}
