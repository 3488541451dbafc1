/**
 * Personal access tokens (issue 33): the token's shape, made and read here only.
 *
 *   "." base64url(zlib(JSON {"wmpat":1,"username":…,"expire":…})) "." "wmpat_" <43 characters>
 *
 * The first part is what the desktop plugin's library (mergin-client) decodes itself from a
 * token it is given (`MerginClient(auth_token="Bearer <token>")`, MERGIN_AUTH): its
 * decode_token_data takes only `Bearer .` followed by zlib-compressed base64url JSON holding
 * `username` and `expire` (with a zone), the shape of the reference's own tokens. A plain
 * base64url first part (no dot, no zlib) is refused there ("Token doesn't start with
 * 'Bearer .'"), so the token starts with the dot. Its secret carries the `wmpat_` prefix, so
 * secret scanners and people recognise it. The secret is 32 random bytes; only its SHA-256 is
 * stored. The first part is informative only: the server finds the token by the secret's
 * hash alone (tokens made before the dot was added keep working).
 */
import { createHash, randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';

export const PERSONAL_TOKEN_PREFIX = 'wmpat_';
/** `wmpat_` and 43 characters of base64url (32 bytes). */
const SECRET_PATTERN = /^wmpat_[A-Za-z0-9_-]{43}$/;
/** Longest token read (characters); the payload names a username of at most 80. */
const MAX_TOKEN_LENGTH = 1024;

/** The secret of a personal token, or null when `token` is not shaped like one. */
export function personalTokenSecret(token: string): string | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const dot = token.lastIndexOf('.');
  const secret = dot < 0 ? token : token.slice(dot + 1);
  return SECRET_PATTERN.test(secret) ? secret : null;
}

/** Whether the text is shaped like a personal token (valid or not). */
export function isPersonalToken(token: string | null): boolean {
  return token !== null && personalTokenSecret(token) !== null;
}

/** SHA-256 (hex) of a token's secret: what is stored and looked up. */
export function hashTokenSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** A new token for `username` ending at `expire`: the token, its secret's hash and hint. */
export function makePersonalToken(
  username: string,
  expire: Date,
): { token: string; secretHash: string; hint: string } {
  const secret = `${PERSONAL_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const payload = JSON.stringify({ wmpat: 1, username, expire: expire.toISOString() });
  return {
    token: `.${deflateSync(Buffer.from(payload)).toString('base64url')}.${secret}`,
    secretHash: hashTokenSecret(secret),
    hint: secret.slice(0, PERSONAL_TOKEN_PREFIX.length + 4),
  };
}
