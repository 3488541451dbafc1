/**
 * Who a token in a request's `Authorization` header names (plugins/auth.ts asks for every
 * request without a session): the bearer tokens of the desktop and mobile clients (bearer.ts,
 * decision 0055). Personal access tokens (auth/personal-tokens.ts) are read from the same
 * header by `requestToken` and checked by services/personal-tokens.ts, so every route that
 * reads `request.auth.user` (downloads, exports, OGC API - Features, the map) takes them.
 *
 * The header is `Bearer <token>`, or `Basic base64(<anything>:<token>)`: GIS clients that
 * only offer a user name and password (GDAL's OAPIF `USERPWD`, QGIS's basic authentication)
 * send the token as the password.
 */
import type { Database } from '../db/database';
import { findUserById } from '../db/queries/users';
import type { User } from '../db/schema';
import { bearerTokenOf, bearerUserMatches, readBearerToken } from './bearer';

/** Longest Basic credentials read (characters of base64). */
const MAX_BASIC_LENGTH = 8192;

/** The token of an Authorization header, or null. */
export function requestToken(header: string | string[] | undefined): string | null {
  const bearer = bearerTokenOf(header);
  if (bearer) return bearer;
  const value = Array.isArray(header) ? header[0] : header;
  const basic = value ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value) : null;
  if (!basic || basic[1]!.length > MAX_BASIC_LENGTH) return null;
  const text = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  const password = colon < 0 ? '' : text.slice(colon + 1);
  return password === '' ? null : password;
}

/** The active user a token names, or null (unknown, expired or ended tokens alike). */
export async function tokenUser(
  deps: { secretKey: string; db: Database['db'] },
  token: string,
  at: Date,
): Promise<User | null> {
  const payload = readBearerToken(deps.secretKey, token, at);
  if (!payload) return null;
  const user = await findUserById(deps.db, payload.user_id);
  return user && bearerUserMatches(deps.secretKey, payload, user) ? user : null;
}
