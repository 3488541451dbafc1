/**
 * Account administration used by the operator's CLI (trusted: no permission check here;
 * an HTTP admin API must check for a superuser before calling these).
 */
import { hashPassword, validatePassword } from '../auth/passwords';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { findUserByEmail, findUserByUsername, insertUser } from '../db/queries/users';
import { findWorkspaceByName, insertWorkspace, setWorkspaceMember } from '../db/queries/workspaces';
import type { User, Workspace } from '../db/schema';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../schemas/roles';
import { reservedWorkspaceNameError } from '../lib/route-words';
import { isValidEmail, usernameError, workspaceNameError } from '../lib/validation';

/** A rule or state that makes the operation impossible; the message is for the operator. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

export interface CreateUserInput {
  username: string;
  email: string;
  password: string;
  superuser: boolean;
}

export function checkUserInput(input: CreateUserInput): string | null {
  const usernameProblem = usernameError(input.username);
  if (usernameProblem) return `Username ${usernameProblem}`;
  if (!isValidEmail(input.email)) return `Email address '${input.email}' is invalid.`;
  return validatePassword(input.password);
}

export async function createUser(
  database: Database,
  config: Config,
  input: CreateUserInput,
): Promise<User> {
  const problem = checkUserInput(input);
  if (problem) throw new AdminError(problem);
  const passwordHash = await hashPassword(input.password);
  return database.db.transaction(async (tx) => {
    if (await findUserByUsername(tx, input.username)) {
      throw new AdminError('User with this username already exists');
    }
    if (await findUserByEmail(tx, input.email)) {
      throw new AdminError('User with this email already exists');
    }
    const global = await findWorkspaceByName(tx, config.globalWorkspace);
    return insertUser(tx, {
      username: input.username,
      email: input.email,
      passwordHash,
      active: true,
      isAdmin: input.superuser,
      verifiedEmail: true,
      preferredWorkspaceId: global?.id ?? null,
    });
  });
}

export async function createWorkspace(
  database: Database,
  input: { name: string; storage: number },
  /** Words of the route table a workspace name would be shadowed by (lib/route-words.ts). */
  routeWords: ReadonlySet<string>,
): Promise<Workspace> {
  const problem =
    workspaceNameError(input.name) ?? reservedWorkspaceNameError(input.name, routeWords);
  if (problem) throw new AdminError(`Workspace name ${problem}`);
  if (!Number.isSafeInteger(input.storage) || input.storage < 0) {
    throw new AdminError('Storage must be a whole number of bytes');
  }
  return database.db.transaction(async (tx) => {
    if (await findWorkspaceByName(tx, input.name)) {
      throw new AdminError('Workspace with this name already exists');
    }
    return insertWorkspace(tx, { name: input.name, storage: input.storage });
  });
}

export async function setWorkspaceRole(
  database: Database,
  input: { workspace: string; username: string; role: WorkspaceRole },
): Promise<{ workspace: Workspace; user: User }> {
  if (!WORKSPACE_ROLES.includes(input.role)) {
    throw new AdminError(`Role must be one of ${WORKSPACE_ROLES.join(', ')}`);
  }
  return database.db.transaction(async (tx) => {
    const workspace = await findWorkspaceByName(tx, input.workspace);
    if (!workspace) throw new AdminError(`Workspace "${input.workspace}" does not exist`);
    const user = await findUserByUsername(tx, input.username);
    if (!user) throw new AdminError(`User "${input.username}" does not exist`);
    await setWorkspaceMember(tx, workspace.id, user.id, input.role);
    return { workspace, user };
  });
}
