/**
 * Loads the signed-in user of each request from the session cookie into `request.auth`.
 * Routes that need a user add `preHandler: requireLogin`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  resolveSession,
  sessionCookieName,
  sessionCookieOptions,
  type ClientMeta,
} from '../auth/sessions';
import type { User } from '../db/schema';
import { authRequired } from '../errors';

export interface AuthState {
  user: User | null;
  /** SHA-256 of the session id when signed in through a session cookie. */
  sessionIdHash: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthState;
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

/** preHandler for routes with "auth: login": 401 with the reference's JSON string. */
export async function requireLogin(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (!request.auth.user) throw authRequired();
}

/** The signed-in user; only call after requireLogin. */
export function currentUser(request: FastifyRequest): User {
  const user = request.auth.user;
  if (!user) throw authRequired();
  return user;
}

export default fp(
  async (app) => {
    const { config, database, now } = app.ctx;
    const cookieName = sessionCookieName(config);
    app.decorateRequest('auth', null as unknown as AuthState);

    app.addHook('onRequest', async (request, reply) => {
      request.auth = { user: null, sessionIdHash: null };
      if (request.is404) return;
      const raw = request.cookies[cookieName];
      if (!raw) return;
      const at = now();
      const resolved = await resolveSession(database.db, raw, at);
      if (!resolved) {
        reply.clearCookie(cookieName, { path: '/', secure: config.secureCookies });
        return;
      }
      request.auth = { user: resolved.user, sessionIdHash: resolved.session.idHash };
      if (resolved.renewedUntil) {
        reply.setCookie(cookieName, raw, sessionCookieOptions(config, resolved.renewedUntil, at));
      }
    });
  },
  { name: 'waymark-auth', dependencies: ['@fastify/cookie'] },
);
