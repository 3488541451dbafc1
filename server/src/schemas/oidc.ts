/**
 * OpenID Connect sign-in (issue 33; services/oidc/, routes routes/oidc.ts):
 *
 * - GET /app/auth/oidc/start?redirect=<path>  → 302 to the provider (authorization code with
 *   PKCE, state and nonce kept in a signed cookie for 10 minutes)
 * - GET /app/auth/oidc/callback               → 302 to the app, signed in; or to
 *   `/login?sso_error=<code>` with one of OIDC_ERROR_MESSAGES' codes
 *
 * `GET /config` names the provider's button (`oidc`), absent when none is configured.
 */
import { Type, type Static } from '@sinclair/typebox';

export const OIDC_ERROR_MESSAGES = {
  denied: 'Sign-in was cancelled at the identity provider.',
  state: 'The sign-in could not be verified (its state did not match). Please try again.',
  expired: 'The sign-in took too long or was already used. Please try again.',
  provider: 'The identity provider could not complete the sign-in. Please try again later.',
  domain: 'Your email address is not in a domain allowed to sign in here.',
  no_email: 'The identity provider did not give an email address for your account.',
  unverified:
    'An account with this email exists, but the identity provider has not verified the address. Sign in with your password.',
  no_account: 'There is no Waymark account for this sign-in. Ask an administrator for access.',
  inactive: 'This account is not active.',
  unavailable: 'Single sign-on is not configured on this server.',
} as const;
export type OidcErrorCode = keyof typeof OIDC_ERROR_MESSAGES;

export const OidcStartQuerySchema = Type.Object({
  /** Where to go after signing in (a path of the app). */
  redirect: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type OidcStartQuery = Static<typeof OidcStartQuerySchema>;

export const OidcCallbackQuerySchema = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 4096 })),
  state: Type.Optional(Type.String({ maxLength: 1024 })),
  iss: Type.Optional(Type.String({ maxLength: 2048 })),
  error: Type.Optional(Type.String({ maxLength: 256 })),
  error_description: Type.Optional(Type.String({ maxLength: 2048 })),
  session_state: Type.Optional(Type.String({ maxLength: 1024 })),
});
export type OidcCallbackQuery = Static<typeof OidcCallbackQuerySchema>;

/** What the sign-in screen needs to show the provider's button. */
export const OidcButtonSchema = Type.Object({
  label: Type.String(),
  /** GET this address (a full-page navigation) to sign in with the provider. */
  start_url: Type.String(),
});
export type OidcButton = Static<typeof OidcButtonSchema>;
