/**
 * Personal access tokens (issue 33): a user makes named tokens with an expiry and a scope on
 * the profile screen, sees each once, lists them with their last use and revokes them. A
 * token in `Authorization: Bearer` (or as a Basic password) signs API calls in as its user;
 * a read-only token cannot change anything; no token changes the password, the email or
 * the tokens (those routes answer 403 TOKEN_NOT_ALLOWED to a token's caller).
 *
 * - GET    /app/auth/tokens       → PersonalTokenList (newest first, revoked ones included)
 * - POST   /app/auth/tokens       CreatePersonalToken → 201 CreatedPersonalToken
 * - DELETE /app/auth/tokens/{id}  → 204 (revoked; again: 204); 404 for another's token
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString, StringEnum } from './common';

export const TOKEN_SCOPES = ['read', 'write'] as const;
export const TokenScopeSchema = StringEnum(TOKEN_SCOPES);
export type TokenScope = Static<typeof TokenScopeSchema>;

/** Expiries offered, in days (the form's choices; the server takes any whole day up to MAX). */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const MAX_TOKEN_DAYS = 365;
export const MAX_TOKEN_NAME_LENGTH = 100;
/** Live tokens one user may hold. */
export const MAX_LIVE_TOKENS = 50;

export const TOKEN_NOT_ALLOWED = 'Personal access tokens cannot be used for this';
export const TOKEN_READ_ONLY = 'This token can only read';
export const TOKEN_NAME_REQUIRED = 'Give the token a name';
export const TOKEN_LIMIT_REACHED = `You can have at most ${MAX_LIVE_TOKENS} active tokens`;

export const TokenStatusSchema = StringEnum(['active', 'expired', 'revoked']);

export const PersonalTokenSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  scope: TokenScopeSchema,
  /** The token's first characters (`wmpat_` and four more), to tell tokens apart. */
  hint: Type.String(),
  status: TokenStatusSchema,
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  last_used_at: NullableString(),
  /** Address of the last use. */
  last_used_ip: NullableString(),
  revoked_at: NullableString(),
});
export type PersonalToken = Static<typeof PersonalTokenSchema>;

export const PersonalTokenListSchema = Type.Object({ tokens: Type.Array(PersonalTokenSchema) });
export type PersonalTokenList = Static<typeof PersonalTokenListSchema>;

export const CreatePersonalTokenSchema = Type.Object({
  name: Type.String({ maxLength: MAX_TOKEN_NAME_LENGTH }),
  scope: TokenScopeSchema,
  /** Days from now until it ends (1-365). */
  expires_in_days: Type.Integer({ minimum: 1, maximum: MAX_TOKEN_DAYS }),
});
export type CreatePersonalToken = Static<typeof CreatePersonalTokenSchema>;

/** The new token, with its value: the only time the server answers it. */
export const CreatedPersonalTokenSchema = Type.Object({
  ...PersonalTokenSchema.properties,
  token: Type.String(),
});
export type CreatedPersonalToken = Static<typeof CreatedPersonalTokenSchema>;

export const PersonalTokenParamsSchema = Type.Object({
  id: Type.String({ pattern: '^\\d{1,9}$' }),
});
