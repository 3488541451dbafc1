/**
 * What the sign-in page says for each `sso_error` code of the OpenID Connect callback
 * (schemas/oidc.ts). Plain constants, no TypeBox: the web app imports them at run time
 * (tests/lint/contract-runtime-imports.test.ts).
 */
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
