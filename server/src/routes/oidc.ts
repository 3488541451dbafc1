/**
 * OpenID Connect sign-in (issue 33; contract schemas/oidc.ts, service services/oidc/):
 *
 *   GET /app/auth/oidc/start      → 302 to the provider, the flow's secrets in a signed cookie
 *   GET /app/auth/oidc/callback   → 302 into the app signed in, or to /login?sso_error=<code>
 *
 * Browser navigations, not API calls: every outcome is a redirect.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EmptySchema } from '../schemas/common';
import { OidcCallbackQuerySchema, OidcStartQuerySchema } from '../schemas/oidc';
import {
  finishOidc,
  OIDC_FLOW_MS,
  OidcSignInError,
  startOidc,
  type OidcFlow,
} from '../services/oidc';
import { startBrowserSession } from './auth';

const FLOW_COOKIE = 'waymark_oidc';
const FLOW_PATH = '/app/auth/oidc';

/** A path inside the app (never another site). */
function safePath(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return '/';
  }
  return value;
}

function readFlow(request: FastifyRequest): OidcFlow | null {
  const raw = request.cookies[FLOW_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    const flow = JSON.parse(Buffer.from(unsigned.value, 'base64url').toString('utf8')) as OidcFlow;
    return typeof flow.state === 'string' && typeof flow.verifier === 'string' ? flow : null;
  } catch {
    return null;
  }
}

const toLogin = (reply: FastifyReply, code: string) =>
  reply.redirect(`/login?sso_error=${encodeURIComponent(code)}`, 302);

const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const cookieOptions = {
    path: FLOW_PATH,
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET navigation from another site.
    sameSite: 'lax' as const,
    secure: ctx.config.secureCookies,
    signed: true,
  };

  app.get(
    '/app/auth/oidc/start',
    { schema: { querystring: OidcStartQuerySchema, response: { 302: EmptySchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const { url, flow } = await startOidc(ctx, safePath(request.query.redirect));
        const value = Buffer.from(JSON.stringify(flow)).toString('base64url');
        reply.setCookie(FLOW_COOKIE, value, { ...cookieOptions, maxAge: OIDC_FLOW_MS / 1000 });
        return reply.redirect(url, 302);
      } catch (error) {
        if (error instanceof OidcSignInError) return toLogin(reply, error.code);
        throw error;
      }
    },
  );

  app.get(
    '/app/auth/oidc/callback',
    { schema: { querystring: OidcCallbackQuerySchema, response: { 302: EmptySchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const flow = readFlow(request);
      // One use: the flow's secrets go whatever the outcome.
      reply.clearCookie(FLOW_COOKIE, { path: FLOW_PATH });
      try {
        const user = await finishOidc(ctx, request.query, flow);
        await startBrowserSession(ctx, request, reply, user);
        return reply.redirect(safePath(flow?.redirect), 302);
      } catch (error) {
        if (error instanceof OidcSignInError) {
          request.log.info({ code: error.code }, 'OpenID sign-in refused');
          return toLogin(reply, error.code);
        }
        throw error;
      }
    },
  );
};

export default oidcRoutes;
