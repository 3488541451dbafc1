/**
 * Community templates (spec 001 §1, api-reference A.5): projects made by the user named
 * TEMPLATES are templates. GET /app/project/templates lists the live ones; POST
 * /v1/project/{namespace} with `template` starts a new project from one's latest files (as its
 * v1, through the clone's code: the new rows reference the template's blobs).
 */
import type { AppContext } from '../context';
import { listProjectsByCreatorName, workspaceDiskUsage } from '../db/queries/projects';
import type { User } from '../db/schema';
import { badRequest, notFound } from '../errors';
import type { CreateProjectBody, Template } from '../schemas/projects';
import { cloneableFiles, filesSize, insertProjectWithFiles, type NewProjectMeta } from './clone';
import { assertSignedIn } from './permissions';
import { newProjectTarget } from './projects';

/** Projects made by the user with this exact username are templates (reference A.5). */
export const TEMPLATES_USERNAME = 'TEMPLATES';

/** The reference's answer when the template's files do not fit the workspace's storage. */
export const TEMPLATE_QUOTA_REACHED = 'Failed to initialize project: Disk quota reached';

/** GET /app/project/templates: live projects made by the TEMPLATES user, by name. */
export async function listTemplates(ctx: AppContext, caller: User | null): Promise<Template[]> {
  assertSignedIn(caller);
  const rows = await listProjectsByCreatorName(ctx.database.db, TEMPLATES_USERNAME);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    namespace: row.namespace,
    version: `v${row.latestVersion}`,
  }));
}

/**
 * POST /v1/project/{namespace} with a `template`: the checks of a blank project first (name,
 * workspace, permission, name clash), then the template, named as in the list (the first one
 * listed when two workspaces hold templates of that name): none is the reference's generic 404.
 * Any signed-in user who may create a project may use any template (the list shows them all).
 */
export async function createProjectFromTemplate(
  ctx: AppContext,
  caller: User | null,
  namespace: string,
  input: CreateProjectBody & { template: string },
  meta: NewProjectMeta,
): Promise<void> {
  assertSignedIn(caller);
  const { name, workspace } = await newProjectTarget(ctx, caller, namespace, input.name);
  const templates = await listProjectsByCreatorName(ctx.database.db, TEMPLATES_USERNAME);
  const template = templates.find((row) => row.name === input.template);
  if (!template) throw notFound();

  const files = await cloneableFiles(ctx, template.id);
  const usage = await workspaceDiskUsage(ctx.database.db, workspace.id);
  if (usage + filesSize(files) > workspace.storage) throw badRequest(TEMPLATE_QUOTA_REACHED);
  await insertProjectWithFiles(
    ctx,
    { workspace, name, public: input.public ?? false, creator: caller, files },
    meta,
  );
}
