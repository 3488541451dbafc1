/**
 * The accounts side of the configuration: the global workspace and its roles (GLOBAL_*),
 * WORKSPACE_CREATION, and the superuser made on first start (ADMIN_*).
 */
import { validatePassword } from '../auth/passwords';
import { isValidEmail, usernameError, workspaceNameError } from '../lib/validation';
import { ConfigError, quoted, read, readBoolean, readInteger, type Env } from './read';
import type { Config } from './types';

export type Workspaces = Pick<
  Config,
  | 'globalWorkspace'
  | 'globalRead'
  | 'globalWrite'
  | 'globalAdmin'
  | 'globalStorage'
  | 'workspaceCreation'
>;

export function readWorkspaces(env: Env): Workspaces {
  const globalWorkspace = read(env, 'GLOBAL_WORKSPACE') ?? 'waymark';
  const problem = workspaceNameError(globalWorkspace);
  if (problem) {
    throw new ConfigError(
      'GLOBAL_WORKSPACE',
      `GLOBAL_WORKSPACE ${problem} (got ${quoted(globalWorkspace)})`,
    );
  }
  return {
    globalWorkspace,
    globalRead: readBoolean(env, 'GLOBAL_READ', false),
    globalWrite: readBoolean(env, 'GLOBAL_WRITE', false),
    globalAdmin: readBoolean(env, 'GLOBAL_ADMIN', false),
    globalStorage: readInteger(
      env,
      'GLOBAL_STORAGE',
      1073741824,
      0,
      Number.MAX_SAFE_INTEGER,
      'must be a whole number of bytes (e.g. 1073741824)',
    ),
    workspaceCreation: readBoolean(env, 'WORKSPACE_CREATION', false),
  };
}

export type Admin = Pick<Config, 'adminUsername' | 'adminEmail' | 'adminPassword'>;

export function readAdmin(env: Env): Admin {
  const adminUsername = read(env, 'ADMIN_USERNAME') ?? 'admin';
  const usernameProblem = usernameError(adminUsername);
  if (usernameProblem) {
    throw new ConfigError(
      'ADMIN_USERNAME',
      `ADMIN_USERNAME ${usernameProblem} (got ${quoted(adminUsername)})`,
    );
  }
  const adminEmail = read(env, 'ADMIN_EMAIL') ?? 'admin@example.com';
  if (!isValidEmail(adminEmail)) {
    throw new ConfigError(
      'ADMIN_EMAIL',
      `ADMIN_EMAIL must be a valid email address (got ${quoted(adminEmail)})`,
    );
  }
  // Passwords may legitimately have surrounding spaces: only the empty string means unset.
  const raw = env.ADMIN_PASSWORD;
  const adminPassword = raw === undefined || raw === '' ? null : raw;
  if (adminPassword !== null) {
    const problem = validatePassword(adminPassword);
    if (problem) throw new ConfigError('ADMIN_PASSWORD', `ADMIN_PASSWORD is rejected: ${problem}`);
  }
  return { adminUsername, adminEmail, adminPassword };
}
