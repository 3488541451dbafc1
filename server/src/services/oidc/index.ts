/**
 * OpenID Connect sign-in (issue 33): authorization code with PKCE through `openid-client`,
 * configured by OIDC_* (config.ts). start() answers the provider's address and the flow's
 * secrets (state, nonce, PKCE verifier) to keep in a signed cookie; finish() checks the
 * provider's answer against them, exchanges the code, validates the ID token and resolves
 * the Waymark user (accounts.ts). Refusals are OidcSignInError with a code the sign-in screen
 * turns into a message (schemas/oidc.ts).
 */
import * as client from 'openid-client';
import type { OidcConfig } from '../../config';
import type { AppContext } from '../../context';
import type { User } from '../../db/schema';
import type { OidcCallbackQuery } from '../../schemas/oidc';
import { OidcSignInError, userForClaims, type OidcClaims } from './accounts';

export { OidcSignInError } from './accounts';

/** How long a sign-in at the provider may take. */
export const OIDC_FLOW_MS = 10 * 60 * 1000;
export const OIDC_CALLBACK_PATH = '/app/auth/oidc/callback';
export const OIDC_START_PATH = '/app/auth/oidc/start';

/** The secrets of one sign-in, kept by the browser in a signed cookie. */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  /** Where to go afterwards (a path of the app). */
  redirect: string;
  /** Unix ms after which the flow is expired. */
  expires: number;
}

const discovered = new Map<string, Promise<client.Configuration>>();

/** The provider's configuration (discovered once per process; again after a failure). */
function providerConfig(oidc: OidcConfig): Promise<client.Configuration> {
  const key = `${oidc.issuer} ${oidc.clientId}`;
  let found = discovered.get(key);
  if (!found) {
    const insecure = new URL(oidc.issuer).protocol === 'http:';
    found = client.discovery(
      new URL(oidc.issuer),
      oidc.clientId,
      oidc.clientSecret ?? undefined,
      oidc.clientSecret ? undefined : client.None(),
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    discovered.set(key, found);
    found.catch(() => discovered.delete(key));
  }
  return found;
}

function oidcOf(ctx: AppContext): OidcConfig {
  if (!ctx.config.oidc) throw new OidcSignInError('unavailable');
  return ctx.config.oidc;
}

export function callbackUrl(ctx: AppContext): string {
  return new URL(OIDC_CALLBACK_PATH, ctx.config.baseUrl).toString();
}

export async function startOidc(
  ctx: AppContext,
  redirect: string,
): Promise<{ url: string; flow: OidcFlow }> {
  const oidc = oidcOf(ctx);
  let config: client.Configuration;
  try {
    config = await providerConfig(oidc);
  } catch (error) {
    ctx.log.warn({ err: error }, 'The OpenID provider could not be reached');
    throw new OidcSignInError('provider');
  }
  const verifier = client.randomPKCECodeVerifier();
  const flow: OidcFlow = {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier,
    redirect,
    expires: ctx.now().getTime() + OIDC_FLOW_MS,
  };
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: callbackUrl(ctx),
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  return { url: url.toString(), flow };
}

/** The user the provider's answer signs in. `flow` is null when the cookie is missing or bad. */
export async function finishOidc(
  ctx: AppContext,
  query: OidcCallbackQuery,
  flow: OidcFlow | null,
): Promise<User> {
  const oidc = oidcOf(ctx);
  if (query.error) {
    throw new OidcSignInError(query.error === 'access_denied' ? 'denied' : 'provider');
  }
  if (!flow || flow.expires <= ctx.now().getTime()) throw new OidcSignInError('expired');
  if (!query.state || query.state !== flow.state) throw new OidcSignInError('state');
  if (!query.code) throw new OidcSignInError('provider');
  let claims: OidcClaims;
  try {
    const config = await providerConfig(oidc);
    const current = new URL(callbackUrl(ctx));
    for (const [name, value] of Object.entries(query)) {
      if (typeof value === 'string') current.searchParams.set(name, value);
    }
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('no ID token');
    claims = { ...idClaims } as OidcClaims;
    // The email and the username may come from the userinfo endpoint only.
    if (claims.email === undefined || claims[oidc.usernameClaim] === undefined) {
      const info = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...info, ...claims, email: claims.email ?? info.email } as OidcClaims;
      if (claims.email_verified === undefined) claims.email_verified = info.email_verified;
      if (claims[oidc.usernameClaim] === undefined) {
        claims[oidc.usernameClaim] = info[oidc.usernameClaim];
      }
    }
  } catch (error) {
    if (error instanceof OidcSignInError) throw error;
    ctx.log.warn({ err: error }, 'OpenID sign-in failed at the code exchange');
    throw new OidcSignInError('provider');
  }
  return userForClaims(ctx, oidc, claims);
}
