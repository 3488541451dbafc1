/**
 * OpenID Connect sign-in (issue 33; services/oidc/, routes routes/oidc.ts):
 *
 * - GET /app/auth/oidc/start?redirect=<path>  → 302 to the provider (authorization code with
 *   PKCE, state and nonce kept in a signed cookie for 10 minutes)
 * - GET /app/auth/oidc/callback               → 302 to the app, signed in; or to
 *   `/login?sso_error=<code>` with one of OIDC_ERROR_MESSAGES' codes (oidc-errors.ts)
 *
 * `GET /config` names the provider's button (`oidc`), absent when none is configured.
 */
import { Type, type Static } from '@sinclair/typebox';

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
