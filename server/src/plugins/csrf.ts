/**
 * Enforces CSRF tokens on POST/PUT/PATCH/DELETE (see auth/csrf.ts), except /alive, and the
 * /v1 and /v2 API or any call with a personal access token in a `Bearer` header when the
 * request carries no session cookie (bearer and anonymous clients cannot be the victims of
 * CSRF: browsers attach cookies, not bearer tokens). A personal token sent as a Basic
 * password is no exemption off the /v1 and /v2 API: a browser that once took Basic
 * credentials for the site attaches them to cross-site requests, as it does cookies.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  checkCsrfToken,
  csrfCookieName,
  csrfKey,
  CSRF_HEADERS,
  makeCsrfToken,
  newCsrfSecret,
} from '../auth/csrf';
import { bearerTokenOf } from '../auth/bearer';
import { isPersonalToken } from '../auth/personal-tokens';
import { hashSessionId, sessionCookieName } from '../auth/sessions';
import { HttpProblem } from '../errors';

export const MUTATING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function headerValue(request: FastifyRequest): string | undefined {
  for (const name of CSRF_HEADERS) {
    const value = request.headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text) return text;
  }
  return undefined;
}

function readSecret(request: FastifyRequest, cookieName: string): string | null {
  const raw = request.cookies[cookieName];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/**
 * Returns a fresh CSRF token for this client, creating the secret cookie when absent, bound
 * to the request's session (or to `sessionIdHash`: the session the answer starts; null for
 * none). Used by GET /app/init and GET /app/auth/refresh/csrf, and by `sendCsrfToken`.
 */
export function issueCsrfToken(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionIdHash: string | null = request.auth?.sessionIdHash ?? null,
): string {
  const { config, now } = request.server.ctx;
  const cookieName = csrfCookieName(config);
  let secret = readSecret(request, cookieName);
  if (!secret) {
    secret = newCsrfSecret();
    reply.setCookie(cookieName, secret, {
      signed: true,
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: config.secureCookies,
    });
  }
  return makeCsrfToken(csrfKey(config.secretKey), secret, now().getTime() / 1000, sessionIdHash);
}

/**
 * Puts the token for the session the answer leaves the client with (`sessionIdHash`, null
 * when it ends the session) in the X-CSRF-Token header, which the web client reads from any
 * answer: after sign-in, sign-out and a new session id its next mutation passes.
 */
export function sendCsrfToken(
  request: FastifyRequest,
  reply: FastifyReply,
  sessionIdHash: string | null,
): void {
  reply.header('x-csrf-token', issueCsrfToken(request, reply, sessionIdHash));
}

/** The SHA-256 of the session cookie the request sends (valid or not), or null. */
function sentSessionHash(request: FastifyRequest, sessionCookie: string): string | null {
  const raw = request.cookies[sessionCookie];
  return raw ? hashSessionId(raw) : null;
}

export function csrfExempt(request: FastifyRequest, sessionCookie: string): boolean {
  const path = request.routeOptions.url ?? request.url;
  if (path === '/alive') return true;
  if (request.cookies[sessionCookie]) return false;
  // A personal access token as Bearer (any path): sent by scripts, never attached by a browser.
  if (isPersonalToken(bearerTokenOf(request.headers.authorization))) return true;
  return path.startsWith('/v1/') || path.startsWith('/v2/');
}

export default fp(
  async (app) => {
    const { config, now } = app.ctx;
    const key = csrfKey(config.secretKey);
    const cookieName = csrfCookieName(config);
    const sessionCookie = sessionCookieName(config);

    app.addHook('onRequest', async (request) => {
      if (!MUTATING_METHODS.has(request.method) || request.is404) return;
      if (csrfExempt(request, sessionCookie)) return;
      const problem = checkCsrfToken(
        key,
        headerValue(request),
        readSecret(request, cookieName),
        Math.floor(now().getTime() / 1000),
        sentSessionHash(request, sessionCookie),
      );
      if (problem) throw new HttpProblem(400, problem);
    });
  },
  { name: 'waymark-csrf', dependencies: ['@fastify/cookie'] },
);
