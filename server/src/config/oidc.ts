/** OpenID Connect sign-in (OIDC_*; services/oidc/); null when OIDC_ISSUER is unset. */
import { WORKSPACE_ROLES } from '../schemas/roles';
import { ConfigError, isUrl, quoted, read, readBoolean, type Env } from './read';
import type { OidcConfig } from './types';

/** The workspace roles an OIDC account may be given on creation: any but owner. */
const OIDC_ROLES: readonly string[] = WORKSPACE_ROLES.filter((role) => role !== 'owner');

export function readOidc(env: Env, globalWorkspace: string): OidcConfig | null {
  const issuer = read(env, 'OIDC_ISSUER');
  if (issuer === undefined) return null;
  if (!isUrl(issuer, ['http:', 'https:'])) {
    throw new ConfigError(
      'OIDC_ISSUER',
      `OIDC_ISSUER must be an http(s) URL (got ${quoted(issuer)})`,
    );
  }
  const clientId = read(env, 'OIDC_CLIENT_ID');
  if (clientId === undefined) {
    throw new ConfigError('OIDC_CLIENT_ID', 'OIDC_CLIENT_ID must be set when OIDC_ISSUER is');
  }
  const role = (read(env, 'OIDC_ROLE') ?? 'reader').toLowerCase();
  if (!OIDC_ROLES.includes(role)) {
    throw new ConfigError(
      'OIDC_ROLE',
      `OIDC_ROLE must be guest, reader, writer or admin (got ${quoted(role)})`,
    );
  }
  const domains = (read(env, 'OIDC_EMAIL_DOMAINS') ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
    .filter((d) => d !== '');
  const wrong = domains.find((d) => !/^[a-z0-9.-]+\.[a-z]{2,}$/.test(d));
  if (wrong) {
    throw new ConfigError(
      'OIDC_EMAIL_DOMAINS',
      `OIDC_EMAIL_DOMAINS has an invalid domain ${quoted(wrong)}`,
    );
  }
  return {
    issuer,
    clientId,
    clientSecret: read(env, 'OIDC_CLIENT_SECRET') ?? null,
    buttonLabel: read(env, 'OIDC_BUTTON_LABEL') ?? 'Sign in with single sign-on',
    usernameClaim: read(env, 'OIDC_USERNAME_CLAIM') ?? 'preferred_username',
    emailDomains: domains,
    createUsers: readBoolean(env, 'OIDC_CREATE_USERS', false),
    workspace: read(env, 'OIDC_WORKSPACE') ?? globalWorkspace,
    role: role as OidcConfig['role'],
  };
}
