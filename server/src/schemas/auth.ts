/**
 * Sign-in and the account calls under /app/auth (api-reference A.2), and the token login of
 * desktop and mobile clients, POST /v1/auth/login (A.3).
 */
import { Type, type Static } from '@sinclair/typebox';
import { NullableString } from './common';

const loginFields = {
  login: Type.Optional(NullableString()),
  password: Type.Optional(NullableString()),
};

/** POST /app/auth/login (the checks, with the reference's form errors, are the service's). */
export const LoginBodySchema = Type.Object(loginFields);
export type LoginBody = Static<typeof LoginBodySchema>;

/** POST /v1/auth/login: both keys required. */
export const TokenLoginBodySchema = Type.Object({
  login: NullableString(),
  password: NullableString(),
});
export type TokenLoginBody = Static<typeof TokenLoginBodySchema>;

/** POST /app/auth/reset-password. */
export const ResetRequestBodySchema = Type.Object({ email: Type.Optional(NullableString()) });
export type ResetRequestBody = Static<typeof ResetRequestBodySchema>;

/** POST /app/auth/reset-password/{token}. */
export const NewPasswordBodySchema = Type.Object({
  password: Type.Optional(NullableString()),
  confirm: Type.Optional(NullableString()),
});
export type NewPasswordBody = Static<typeof NewPasswordBodySchema>;

/** POST /app/auth/change-password. */
export const ChangePasswordBodySchema = Type.Object({
  old_password: Type.Optional(NullableString()),
  password: Type.Optional(NullableString()),
  confirm: Type.Optional(NullableString()),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBodySchema>;

/** POST /app/auth/user/profile. */
export const ProfileBodySchema = Type.Object({
  email: Type.Optional(NullableString()),
  first_name: Type.Optional(NullableString()),
  last_name: Type.Optional(NullableString()),
  receive_notifications: Type.Optional(Type.Boolean()),
});
export type ProfileBody = Static<typeof ProfileBodySchema>;

/** Routes of emailed links (`/…/:token`). */
export const TokenParamsSchema = Type.Object({ token: Type.String() });
export type TokenParams = Static<typeof TokenParamsSchema>;

/** GET /app/auth/refresh/csrf. */
export const CsrfSchema = Type.Object({ csrf: Type.String() });
export type Csrf = Static<typeof CsrfSchema>;

/** The answer of POST /v1/auth/login: the user and their bearer token. */
export const TokenLoginSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  email: NullableString(),
  first_name: NullableString(),
  last_name: NullableString(),
  name: Type.String(),
  receive_notifications: Type.Boolean(),
  verified_email: Type.Boolean(),
  tier: Type.String(),
  registration_date: Type.String(),
  storage: Type.Null(),
  storage_limit: Type.Null(),
  disk_usage: Type.Null(),
  has_project: Type.Boolean(),
  session: Type.Object({ token: Type.String(), expire: Type.String() }),
});
export type TokenLogin = Static<typeof TokenLoginSchema>;
