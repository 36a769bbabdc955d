import { isPermission, type RouteAccess } from '@shuzhi/contracts/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import {
  cachedPrincipal,
  refreshSession,
  type SessionPrincipal,
  sessionPrincipal,
} from '../auth/sessions.ts';
import type { AccessPayload } from '../auth/tokens.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { HttpError, unauthorized } from '../errors/app-error.ts';
import { passwordChangeRefusal, unknownPasswordChangeRoutes } from './password-change-gate.ts';
import { authenticateSigned, isSignedRequest } from './signed-request.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: a catalogue permission, any signed-in user, or everyone. */
    access?: RouteAccess;
  }
  interface FastifyRequest {
    user: AuthUser | null;
  }
}

// One Set per cached principal object (the memory cache hands out the same object until it expires).
const permissionSets = new WeakMap<object, ReadonlySet<string>>();
function permissionSet(principal: { permissions: string[] }): ReadonlySet<string> {
  let set = permissionSets.get(principal);
  if (!set) {
    set = new Set(principal.permissions);
    permissionSets.set(principal, set);
  }
  return set;
}

export type RegisteredRoute = { method: string; url: string; access: RouteAccess | undefined };

function bearer(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return match?.[1] ?? null;
}

function isRouteAccess(value: unknown): value is RouteAccess {
  return value === 'public' || value === 'loggedIn' || (typeof value === 'string' && isPermission(value));
}

/**
 * Authenticates a request from its Bearer token, following the X-Authorization refresh flow when the access
 * token has expired: the request then runs as the fresh pair, returned in the `access-token` and
 * `x-access-token` headers. Without a token, a request signed with an access key (open access) runs as the
 * key's bound user; it is never on the hot path above, which only looks at Bearer tokens.
 */
async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<AuthUser> {
  const token = bearer(request.headers.authorization);
  if (!token) {
    if (isSignedRequest(request.headers)) return authenticateSigned(ctx, request);
    throw unauthorized();
  }
  const check = await ctx.tokens.verifyAccess(token);
  if (check.status === 'invalid') throw unauthorized();
  let payload = check.payload;
  if (check.status === 'expired') {
    const refreshToken = bearer(request.headers['x-authorization']);
    if (!refreshToken) throw unauthorized();
    const pair = await refreshSession(ctx, refreshToken, payload.SessionId);
    if (!pair) throw unauthorized(true);
    reply.header('access-token', pair.accessToken);
    reply.header('x-access-token', pair.refreshToken);
    payload = pair.payload;
  }
  return authUser(await sessionPrincipal(ctx, payload.SessionId), payload);
}

/**
 * The hot path: a token verified before whose session's principal is in this process's local tier, all
 * without awaiting. Undefined when anything has to be loaded or verified (then `authenticate` runs).
 */
function authenticateKnown(ctx: AppContext, request: FastifyRequest): AuthUser | undefined {
  const token = bearer(request.headers.authorization);
  if (!token) return undefined;
  const payload = ctx.tokens.knownAccess(token);
  if (!payload) return undefined;
  const principal = cachedPrincipal(ctx, payload.SessionId);
  if (principal === undefined) return undefined;
  return authUser(principal, payload);
}

function authUser(principal: SessionPrincipal | null, payload: AccessPayload): AuthUser {
  if (!principal || principal.userId !== payload.UserId) throw unauthorized(true);
  return {
    userId: principal.userId,
    tenantId: principal.tenantId,
    accountType: principal.accountType,
    account: payload.Account,
    realName: payload.RealName,
    orgId: payload.OrgId,
    orgName: payload.OrgName,
    sessionId: payload.SessionId,
    permissions: permissionSet(principal),
    ...(principal.passwordChange ? { passwordChange: principal.passwordChange } : {}),
  };
}

/**
 * Deny by default: every route declares `config.access`; a route without one makes start-up fail, and is
 * answered 403 should it ever be reached. Returns the registry of routes for tests and docs.
 */
export function installAccess(app: FastifyInstance, ctx: AppContext): () => RegisteredRoute[] {
  const routes: RouteOptions[] = [];
  app.decorateRequest('user', null);
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  const list = () =>
    routes.flatMap((route) =>
      (Array.isArray(route.method) ? route.method : [route.method]).map((method) => ({
        method,
        url: route.url,
        access: route.config?.access,
      })),
    );
  app.addHook('onReady', async () => {
    const missing = list().filter((r) => !isRouteAccess(r.access));
    if (missing.length > 0) {
      throw new Error(
        `Routes without a valid access declaration: ${missing.map((r) => `${r.method} ${r.url}`).join(', ')}`,
      );
    }
    const unknown = unknownPasswordChangeRoutes(list());
    if (unknown.length > 0) {
      throw new Error(`Forced password change allows routes that do not exist: ${unknown.join(', ')}`);
    }
  });
  const admit = (request: FastifyRequest, access: RouteAccess, user: AuthUser): Error | undefined => {
    request.user = user;
    if (access !== 'loggedIn' && !user.permissions.has(access)) return new HttpError(403);
    return passwordChangeRefusal(request, user.passwordChange);
  };
  // Callback style so that a cached caller is admitted without a single await; anything else goes the
  // full (awaited) way.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.is404) return done();
    const access = request.routeOptions.config?.access;
    if (access === 'public') return done();
    if (!isRouteAccess(access)) return done(new HttpError(403));
    let known: AuthUser | undefined;
    try {
      known = authenticateKnown(ctx, request);
    } catch (error) {
      return done(error as Error);
    }
    if (known) return done(admit(request, access, known));
    authenticate(ctx, request, reply).then(
      (user) => done(admit(request, access, user)),
      (error: Error) => done(error),
    );
  });
  return list;
}

/** The signed-in user of a route declared `loggedIn` or with a permission. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
