/**
 * The checks every push runs before anything is stored, in the reference's order
 * (api-reference §1.2): the administrator's lock, the base version, the rules, the files
 * against the project's current ones, the allowance. Resolves the plan.
 */
import type { AppContext } from '../../context';
import { findVersion, listCurrentFiles } from '../../db/queries/files';
import type { ProjectAccess } from '../permissions';
import type { PushDialect } from './dialect';
import { lockedProblem } from './lock';
import { planPush, type CurrentFiles, type PushChanges, type UploadPlan } from './plan';
import { checkAllowance, planGrowth } from './quota';
import { parsePushVersion } from './rules';

export interface CheckedPush {
  plan: UploadPlan;
  /** The version the client named (null: not a version). */
  clientVersion: number | null;
}

export async function checkPush(
  ctx: AppContext,
  access: ProjectAccess,
  input: { version?: string; changes: PushChanges },
  dialect: PushDialect,
): Promise<CheckedPush> {
  const db = ctx.database.db;
  const { project } = access;
  const locked = lockedProblem(project.lockedUntil, ctx.now(), dialect);
  if (locked) throw locked;

  const clientVersion = parsePushVersion(input.version);
  const hasV0 = project.latestVersion > 0 || (await findVersion(db, project.id, 0)) !== null;
  const refused = dialect.version(clientVersion, project.latestVersion, hasV0);
  if (refused) throw refused;

  const current: CurrentFiles = new Map(
    (await listCurrentFiles(db, project.id)).map((f) => [f.path, f]),
  );
  const plan = planPush(input.changes, current, dialect);
  await checkAllowance(db, access.workspace, planGrowth(plan, current));
  return { plan, clientVersion };
}
