/**
 * Loads the signed-in user of each request into `request.auth`: from the session cookie,
 * else from a token in the `Authorization` header (auth/request-token.ts: the desktop and
 * mobile clients' bearer tokens, also as a Basic password for GIS clients; and personal
 * access tokens, services/personal-tokens.ts). A personal token that is unknown, revoked or
 * expired is a 401 (its holder is told, not served as anonymous); a read-only one is a 403
 * on any call that changes something, and no token is taken by a route whose config says
 * `personalToken: 'never'` (password, email, tokens). The request's address and user are
 * also kept for the audit log (lib/request-context.ts).
 * A valid session cookie wins over the header, as in the reference; an invalid token is
 * an anonymous request. Routes that need a user are registered through `signedIn(…)`, which
 * adds `requireLogin` once for its whole scope.
 *
 * A route whose config says `deferAuth: true` (the map's file reads) reads nothing here:
 * `request.auth.credential` names the credentials it came with, and the route calls
 * `resolveCaller(request)` when it needs the caller (not at all when an access decision of
 * the last seconds answers it, services/permissions/access-window.ts), or `adoptCaller` with
 * the caller that decision found.
 */
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isPersonalToken } from '../auth/personal-tokens';
import { requestToken, tokenUser } from '../auth/request-token';
import {
  hashSessionId,
  resolveSession,
  sessionCookieName,
  sessionCookieOptions,
  type ClientMeta,
} from '../auth/sessions';
import type { User } from '../db/schema';
import { authRequired, HttpProblem } from '../errors';
import { runWithRequestContext, type RequestContext } from '../lib/request-context';
import { AuthErrorSchema } from '../schemas/common';
import { TOKEN_NOT_ALLOWED, TOKEN_READ_ONLY, type TokenScope } from '../schemas/personal-tokens';
import { withinAccessWindow } from '../services/permissions/access-window';
import { resolvePersonalToken } from '../services/personal-tokens';
import { MUTATING_METHODS } from './csrf';

export interface AuthState {
  user: User | null;
  /** SHA-256 of the session id when signed in through a session cookie. */
  sessionIdHash: string | null;
  /**
   * The database snapshot the session was read under (db/read-cache.ts): values read after
   * it may be served from the read cache while the database still has this snapshot. Null
   * without a session (a bearer token's user is read without one).
   */
  snapshot: string | null;
  /** The personal access token the request is signed in with, if any. */
  token?: { id: number; scope: TokenScope };
  /**
   * Names the credentials the request came with (hashes of the session cookie and the
   * Authorization header; 'anonymous' without either): requests with the same credential
   * are answered as the same caller. Null when the credentials did not resolve as presented
   * (an invalid cookie), so nothing is shared by it.
   */
  credential: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState;
    /** Address and user of the request, for the audit log. */
    audit: RequestContext;
  }
  interface FastifyContextConfig {
    /**
     * How a personal access token's caller is served: 'never' refuses any token (403);
     * 'read' lets a read-only token call this mutating method (a lookup sent as POST).
     */
    personalToken?: 'never' | 'read';
    /** The route resolves its caller itself (resolveCaller / adoptCaller), see above. */
    deferAuth?: boolean;
  }
}

/**
 * The client's address and user agent. The address is request.ip: X-Forwarded-For counts
 * only when the app trusts a proxy (trustProxy), so a client cannot choose its own address.
 */
export function clientMeta(request: FastifyRequest): ClientMeta {
  const userAgent = request.headers['user-agent'];
  return {
    ip: request.ip || null,
    userAgent: userAgent ? userAgent.slice(0, 512) : null,
  };
}

/** The X-Device-Id header (stored with versions and logins), or null. */
export function deviceIdOf(request: FastifyRequest): string | null {
  const value = request.headers['x-device-id'];
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, 256) : null;
}

/**
 * preHandler for routes with "auth: login": 401 with the reference's JSON string. A
 * deferAuth route checks the caller it resolves itself (its service asserts a signed-in
 * caller), so the check is not made here without one.
 */
export async function requireLogin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (request.routeOptions.config?.deferAuth) return;
  if (!request.auth.user) throw authRequired();
}

/**
 * A scope for routes that need a signed-in user: `requireLogin` runs before each of their
 * handlers (after validation, as a route's own preHandler would), and each declares the
 * reference's 401 answer, a JSON string. Public routes are registered outside it.
 */
export function signedIn(...plugins: FastifyPluginAsync[]): FastifyPluginAsync {
  return async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.schema = {
        ...route.schema,
        response: { 401: AuthErrorSchema, ...(route.schema?.response as object | undefined) },
      };
    });
    scope.addHook('preHandler', requireLogin);
    for (const plugin of plugins) await scope.register(plugin);
  };
}

/** The signed-in user; only call in a signedIn scope (or after requireLogin). */
export function currentUser(request: FastifyRequest): User {
  const user = request.auth.user;
  if (!user) throw authRequired();
  return user;
}

function setActor(request: FastifyRequest): void {
  const user = request.auth.user;
  request.audit.actor = user ? { id: user.id, username: user.username } : null;
  request.audit.tokenId = request.auth.token?.id ?? null;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** AuthState.credential of a request with this cookie value and Authorization header. */
function credentialOf(cookie: string | undefined, authorization: string | undefined): string {
  if (!cookie && !authorization) return 'anonymous';
  return `session:${cookie ? hashSessionId(cookie) : ''} authorization:${authorization ? sha256(authorization) : ''}`;
}

/** The caller resolution of deferAuth requests not yet resolved. */
const deferred = new WeakMap<FastifyRequest, () => Promise<void>>();

/** Reads the caller of a deferAuth request (once; nothing for other requests). */
export async function resolveCaller(request: FastifyRequest): Promise<void> {
  const resolve = deferred.get(request);
  if (!resolve) return;
  deferred.delete(request);
  await resolve();
}

/**
 * Takes for a deferAuth request the caller another request with the same credential
 * resolved moments ago (an access decision reused), instead of reading it again.
 */
export function adoptCaller(request: FastifyRequest, auth: AuthState): void {
  deferred.delete(request);
  request.auth = { ...auth };
  setActor(request);
}

/**
 * For a deferAuth request: what `resolve` finds for the request's caller, or what it found
 * for a request with the same credential and `key` within the access window
 * (services/permissions/access-window.ts), whose caller this request then takes
 * (`reused`). `key` null: resolved for this request alone.
 */
export async function withCallerWindow<T>(
  request: FastifyRequest,
  key: string | null,
  resolve: (user: User | null) => Promise<T>,
): Promise<{ value: T; reused: boolean }> {
  const own = async () => {
    await resolveCaller(request);
    return resolve(request.auth.user);
  };
  const credential = request.auth.credential;
  if (key === null || credential === null) return { value: await own(), reused: false };
  const found = await withinAccessWindow<{ value: T; auth: AuthState }>(
    request.server.ctx,
    JSON.stringify([key, credential]),
    async () => {
      const value = await own();
      return { value: { value, auth: request.auth }, keep: request.auth.credential !== null };
    },
  );
  if (found.auth === request.auth) return { value: found.value, reused: false };
  adoptCaller(request, found.auth);
  return { value: found.value, reused: true };
}

export default fp(
  async (app) => {
    const { config, database, now, readCache } = app.ctx;

    /** The user of a valid token in the Authorization header, or null (auth/request-token.ts). */
    async function bearerUser(request: FastifyRequest, at: Date): Promise<User | null> {
      const token = requestToken(request.headers.authorization);
      return token ? tokenUser({ secretKey: config.secretKey, db: database.db }, token, at) : null;
    }

    /** Signs the request in with a personal token, or refuses it (401, 403). */
    async function personalTokenCaller(
      request: FastifyRequest,
      token: string,
      at: Date,
    ): Promise<void> {
      const caller = await resolvePersonalToken({ db: database.db }, token, at, request.ip || null);
      if (!caller) throw authRequired();
      const policy = request.routeOptions.config?.personalToken;
      if (policy === 'never') throw new HttpProblem(403, TOKEN_NOT_ALLOWED);
      if (
        caller.token.scope === 'read' &&
        MUTATING_METHODS.has(request.method) &&
        policy !== 'read'
      ) {
        throw new HttpProblem(403, TOKEN_READ_ONLY);
      }
      request.auth.user = caller.user;
      request.auth.token = { id: caller.token.id, scope: caller.token.scope };
      request.audit.tokenId = caller.token.id;
    }

    const cookieName = sessionCookieName(config);
    app.decorateRequest('auth', null as unknown as AuthState);
    app.decorateRequest('audit', null as unknown as RequestContext);

    // The rest of the request runs with its audit context (a callback hook, so the
    // handler's async work inherits it).
    app.addHook('onRequest', (request, reply, done) => {
      request.audit = {
        ip: request.ip || null,
        actor: null,
        tokenId: null,
        readOnly: !MUTATING_METHODS.has(request.method),
        // 'close' follows the answer's last byte, or an aborted request (both always come).
        answered: new Promise((resolve) => reply.raw.once('close', () => resolve())),
      };
      runWithRequestContext(request.audit, done);
    });

    /** Reads the caller from the session cookie, else from the Authorization header. */
    async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const raw = request.cookies[cookieName];
      const at = now();
      const resolved = raw ? await resolveSession(database.db, raw, at, readCache) : null;
      if (!resolved) {
        if (raw) {
          reply.clearCookie(cookieName, { path: '/', secure: config.secureCookies });
          request.auth.credential = null;
        }
        const token = requestToken(request.headers.authorization);
        if (token && isPersonalToken(token)) await personalTokenCaller(request, token, at);
        else request.auth.user = await bearerUser(request, at);
        setActor(request);
        return;
      }
      request.auth = {
        user: resolved.user,
        sessionIdHash: resolved.session.idHash,
        snapshot: resolved.snapshot,
        credential: request.auth.credential,
      };
      setActor(request);
      if (raw && resolved.renewedUntil) {
        reply.setCookie(cookieName, raw, sessionCookieOptions(config, resolved.renewedUntil, at));
      }
    }

    app.addHook('onRequest', async (request, reply) => {
      request.auth = { user: null, sessionIdHash: null, snapshot: null, credential: null };
      if (request.is404) return;
      request.auth.credential = credentialOf(
        request.cookies[cookieName],
        request.headers.authorization,
      );
      if (request.routeOptions.config?.deferAuth) {
        deferred.set(request, () => authenticate(request, reply));
        return;
      }
      await authenticate(request, reply);
    });
  },
  { name: 'waymark-auth', dependencies: ['@fastify/cookie'] },
);
