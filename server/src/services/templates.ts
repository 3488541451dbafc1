/**
 * Community templates (spec 001 §1, api-reference A.5): projects made by the user named
 * TEMPLATES are templates. GET /app/project/templates lists the live ones the caller may
 * read; POST /v1/project/{namespace} with `template` starts a new project from one's latest
 * files (as its v1, through the clone's code: the new rows reference the template's blobs).
 *
 * The name is the operator's: only the admin command line may create that account (any
 * letter case: usernames are unique case-insensitively), so no workspace admin or invited
 * person can publish templates to everybody.
 */
import type { AppContext } from '../context';
import {
  listProjectsByCreatorName,
  workspaceDiskUsage,
  type TemplateRow,
} from '../db/queries/projects';
import type { User } from '../db/schema';
import { badRequest, HttpProblem, notFound } from '../errors';
import type { CreateProjectBody, Template } from '../schemas/projects';
import { cloneableFiles, filesSize, insertProjectWithFiles, type NewProjectMeta } from './clone';
import { assertSignedIn, projectFor } from './permissions';
import { newProjectTarget } from './projects';

/** Projects made by the user with this exact username are templates (reference A.5). */
export const TEMPLATES_USERNAME = 'TEMPLATES';

export const USERNAME_RESERVED = "is reserved for the server's community templates";

/**
 * The problem of a username only the operator may give (TEMPLATES in any letter case), as
 * the username rule words problems; null for any other name.
 */
export function reservedUsernameError(username: string): string | null {
  return username.trim().toLowerCase() === TEMPLATES_USERNAME.toLowerCase()
    ? USERNAME_RESERVED
    : null;
}

/**
 * The templates `caller` may read (a private one of a workspace they are not in is not
 * theirs), of one `name` when given.
 */
async function readableTemplates(
  ctx: AppContext,
  caller: User,
  name?: string,
): Promise<TemplateRow[]> {
  const rows = await listProjectsByCreatorName(ctx.database.db, TEMPLATES_USERNAME);
  const readable: TemplateRow[] = [];
  for (const row of rows) {
    if (name !== undefined && row.name !== name) continue;
    try {
      const access = await projectFor(ctx, caller, { id: row.id }, null);
      if (access.permissions.read) readable.push(row);
    } catch (error) {
      // Gone meanwhile, or in an inactive workspace: no template.
      if (!(error instanceof HttpProblem && error.status === 404)) throw error;
    }
  }
  return readable;
}

/** The reference's answer when the template's files do not fit the workspace's storage. */
export const TEMPLATE_QUOTA_REACHED = 'Failed to initialize project: Disk quota reached';

/** GET /app/project/templates: live projects made by the TEMPLATES user the caller may read, by name. */
export async function listTemplates(ctx: AppContext, caller: User | null): Promise<Template[]> {
  assertSignedIn(caller);
  const rows = await readableTemplates(ctx, caller);
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
 * listed when two workspaces hold templates of that name): none, or none the caller may read,
 * is the reference's generic 404 (the same answer: a private template is not revealed).
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
  const [template] = await readableTemplates(ctx, caller, input.template);
  if (!template) throw notFound();

  const files = await cloneableFiles(ctx, template.id);
  const usage = await workspaceDiskUsage(ctx.database.db, workspace.id);
  if (usage + filesSize(files) > workspace.storage) throw badRequest(TEMPLATE_QUOTA_REACHED);
  await insertProjectWithFiles(
    ctx,
    {
      workspace,
      name,
      public: input.public ?? false,
      creator: caller,
      files,
      audit: { template: template.name },
    },
    meta,
  );
}
