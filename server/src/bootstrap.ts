/**
 * First-start setup, run on every start (idempotent): the global workspace exists with
 * storage GLOBAL_STORAGE, a database without users gets its superuser, and expired
 * sessions are swept.
 * Runs under a transaction-level advisory lock so instances starting together agree.
 */
import { sql } from 'drizzle-orm';
import { generatePassword, hashPassword } from './auth/passwords';
import type { Config } from './config';
import type { Database } from './db/database';
import { deleteExpiredSessions } from './db/queries/sessions';
import { countUsers, insertUser } from './db/queries/users';
import {
  findWorkspaceByName,
  insertWorkspace,
  setWorkspaceMember,
  updateWorkspaceStorage,
} from './db/queries/workspaces';

export const BOOTSTRAP_LOCK_ID = 7_201_935_002;

export interface BootstrapResult {
  workspaceId: number;
  /** Set when this start created the superuser. */
  createdAdmin: {
    username: string;
    email: string;
    /** The generated password when ADMIN_PASSWORD was unset: show it once, never store it. */
    generatedPassword: string | null;
  } | null;
}

export async function bootstrap(database: Database, config: Config): Promise<BootstrapResult> {
  const generatedPassword = config.adminPassword === null ? generatePassword(20) : null;

  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK_ID})`);

    let workspace = await findWorkspaceByName(tx, config.globalWorkspace);
    if (!workspace) {
      workspace = await insertWorkspace(tx, {
        name: config.globalWorkspace,
        storage: config.globalStorage,
      });
    } else if (workspace.storage !== config.globalStorage) {
      await updateWorkspaceStorage(tx, workspace.id, config.globalStorage);
    }

    await deleteExpiredSessions(tx, new Date());

    if ((await countUsers(tx)) > 0) return { workspaceId: workspace.id, createdAdmin: null };

    const passwordHash = await hashPassword(config.adminPassword ?? generatedPassword!);
    const admin = await insertUser(tx, {
      username: config.adminUsername,
      email: config.adminEmail,
      passwordHash,
      active: true,
      isAdmin: true,
      verifiedEmail: true,
      preferredWorkspaceId: workspace.id,
    });
    await setWorkspaceMember(tx, workspace.id, admin.id, 'owner');
    return {
      workspaceId: workspace.id,
      createdAdmin: {
        username: admin.username,
        email: config.adminEmail,
        generatedPassword,
      },
    };
  });
}
