/**
 * Project list and creation (api-reference A.5, §6.1). Permission rules: permissions.ts.
 */
import type { ClientMeta } from '../auth/sessions';
import type { AppContext } from '../context';
import { recordAudit } from './audit';
import { isUniqueViolation } from '../db/errors';
import {
  findProjectByName,
  insertProjectWithInitialVersion,
  upsertProjectMembers,
  listProjectsPage,
  type ProjectListRow,
  type ProjectMemberRow,
  type ProjectSortColumn,
} from '../db/queries/projects';
import { findUserByUsername } from '../db/queries/users';
import { listWorkspaceRoles } from '../db/queries/workspaces';
import type { User, Workspace, WorkspaceRole } from '../db/schema';
import { badRequest, forbidden, HttpProblem, notFound } from '../errors';
import { parseSuffixOrder } from '../lib/ordering';
import { assertPageExists, pageWindow } from '../lib/pagination';
import { isoZ } from '../lib/time';
import { projectNameError } from '../lib/validation';
import type {
  CreateProjectBody,
  ProjectAccess as AccessLists,
  ProjectList,
  ProjectListItem,
  ProjectSummary,
} from '../schemas/projects';
import {
  assertSignedIn,
  canCreateProject,
  isSuperuser,
  projectPermissions,
  projectRoleRank,
  readableWorkspaceIds,
  workspaceFor,
  workspaceRolesById,
  type Actor,
  type ProjectListScope,
} from './permissions';

export const WORKSPACE_DOES_NOT_EXIST = 'Workspace does not exist';
export const WORKSPACE_DOES_NOT_EXIST_UPDATE =
  'Workspace does not exist. Please try updating to the newest version';
export const NO_WORKSPACE_PERMISSIONS = 'You do not have permissions for this workspace';
export const PROJECT_EXISTS = 'Project with the same name already exists';
/** Days a project scheduled for deletion is kept before it is purged. */
export const DELETED_PROJECT_EXPIRATION_DAYS = 7;

/** A project as its views read it, whatever query it came from. */
export interface ProjectFacts {
  id: string;
  name: string;
  latestVersion: number;
  createdAt: Date;
  updatedAt: Date;
  creatorId: number | null;
  diskUsage: number;
  tags: string[];
}

export function projectSummary(
  project: ProjectFacts,
  namespace: string,
  permissions: ProjectSummary['permissions'],
): ProjectSummary {
  return {
    id: project.id,
    name: project.name,
    namespace,
    version: `v${project.latestVersion}`,
    created: isoZ(project.createdAt),
    updated: isoZ(project.updatedAt),
    creator: project.creatorId,
    disk_usage: project.diskUsage,
    tags: project.tags,
    permissions: {
      upload: permissions.upload,
      update: permissions.update,
      delete: permissions.delete,
    },
  };
}

/**
 * Direct members as the reference's cumulative lists: an owner is also a writer, editor and
 * reader; editors equal writers (there is no editor role here).
 */
export function accessView(members: ProjectMemberRow[], isPublic: boolean): AccessLists {
  const atLeast = (rank: number) => members.filter((m) => projectRoleRank(m.role) >= rank);
  const owners = atLeast(projectRoleRank('owner'));
  const writers = atLeast(projectRoleRank('writer'));
  const readers = atLeast(projectRoleRank('reader'));
  return {
    owners: owners.map((m) => m.userId),
    ownersnames: owners.map((m) => m.username),
    writers: writers.map((m) => m.userId),
    writersnames: writers.map((m) => m.username),
    editors: writers.map((m) => m.userId),
    editorsnames: writers.map((m) => m.username),
    readers: readers.map((m) => m.userId),
    readersnames: readers.map((m) => m.username),
    public: isPublic,
  };
}

export interface ProjectListQuery {
  page: number;
  perPage: number;
  orderParams?: string;
  orderBy?: string;
  descending?: boolean;
  namespace?: string;
  onlyNamespace?: string;
  name?: string;
  user?: string;
  lastUpdatedIn?: number;
  flag?: 'created' | 'shared';
  asAdmin?: boolean;
  public?: boolean;
  onlyPublic?: boolean;
}

/** Sortable names: project columns, plus the names the web client sends. */
const PROJECT_SORT: Readonly<Record<string, ProjectSortColumn>> = {
  name: 'name',
  created: 'created',
  updated: 'updated',
  disk_usage: 'disk_usage',
  creator_id: 'creator_id',
  workspace_id: 'workspace_id',
  public: 'public',
  latest_version: 'latest_version',
  removed_at: 'removed_at',
  locked_until: 'locked_until',
  id: 'id',
  namespace: 'namespace',
  'meta.size': 'disk_usage',
};

/** The sort fields a caller is told about when it names an unknown one. */
const ADVERTISED_SORT = ['name', 'created', 'updated', 'disk_usage', 'namespace', 'meta.size'];

function projectOrder(query: ProjectListQuery) {
  if (query.orderParams) {
    // Unlike the reference, which silently ignores unknown fields, a typo gets a clear answer.
    for (const token of query.orderParams.split(',')) {
      const field = token.trim().replace(/_(asc|desc)$/i, '');
      if (field !== '' && !Object.hasOwn(PROJECT_SORT, field)) {
        throw new HttpProblem(
          400,
          `Cannot sort by '${field}': order_params takes <field>_asc or <field>_desc with a field among ${ADVERTISED_SORT.join(', ')}`,
        );
      }
    }
    return parseSuffixOrder(query.orderParams, PROJECT_SORT);
  }
  if (
    query.orderBy &&
    query.orderBy !== 'namespace' &&
    Object.hasOwn(PROJECT_SORT, query.orderBy)
  ) {
    return [{ column: PROJECT_SORT[query.orderBy]!, descending: query.descending ?? false }];
  }
  // The reference leaves this to the database; most recently updated first is stable here.
  return [{ column: 'updated' as const, descending: true }];
}

async function rolesOf(ctx: AppContext, user: User): Promise<Map<number, WorkspaceRole | null>> {
  const rows = await listWorkspaceRoles(ctx.database.db, user.id);
  return workspaceRolesById(ctx.config, user, rows);
}

function toListItem(
  actor: Actor,
  row: ProjectListRow,
  roles: Map<number, WorkspaceRole | null>,
): ProjectListItem {
  const permissions = projectPermissions(actor, {
    public: row.public,
    removed: row.removedAt !== null,
    directRole: row.viewerRole,
    workspaceRole: roles.get(row.workspaceId) ?? null,
  });
  return {
    ...projectSummary(row, row.workspaceName, permissions),
    has_conflict: row.hasConflict,
    access: accessView(row.members, row.public),
  };
}

/**
 * GET /v1/project/paginated: the projects the caller may see, filtered, sorted, paged.
 * `snapshot`: the database snapshot taken before anything about the caller was read (the
 * session's, see plugins/auth.ts), or null. With one, the page is served from the read cache
 * while the database is still at that snapshot (db/read-cache.ts), else read and kept there.
 * A page filtered by age (last_updated_in) depends on the clock and is never kept.
 */
export async function listProjects(
  ctx: AppContext,
  caller: User | null,
  query: ProjectListQuery,
  snapshot: string | null = null,
): Promise<ProjectList> {
  const actor = caller?.active ? caller : null;
  if (snapshot === null || query.lastUpdatedIn !== undefined) {
    return readProjectList(ctx, actor, query);
  }
  const key = `project-list ${actor?.id ?? 'anonymous'} ${JSON.stringify(query)}`;
  const cached = ctx.readCache.get<ProjectList>(key, snapshot);
  if (cached) return cached;
  const page = await readProjectList(ctx, actor, query);
  ctx.readCache.set(key, snapshot, page, 1 + page.projects.length);
  return page;
}

async function readProjectList(
  ctx: AppContext,
  actor: User | null,
  query: ProjectListQuery,
): Promise<ProjectList> {
  const window = pageWindow({ page: query.page, perPage: query.perPage });
  const db = ctx.database.db;
  const roles = actor ? await rolesOf(ctx, actor) : new Map<number, WorkspaceRole | null>();

  let scope: ProjectListScope;
  if (query.onlyPublic) scope = { kind: 'public' };
  else if (isSuperuser(actor) && query.asAdmin) scope = { kind: 'all' };
  else if (actor) {
    scope = {
      kind: 'member',
      userId: actor.id,
      readableWorkspaceIds: readableWorkspaceIds(roles),
      includePublic: query.public ?? true,
    };
  } else scope = { kind: 'public' };

  let flag: Parameters<typeof listProjectsPage>[1]['flag'];
  if (query.flag && actor) {
    const subject = query.user ? await findUserByUsername(db, query.user) : actor;
    if (subject && query.flag === 'created') flag = { kind: 'created', userId: subject.id };
    else if (subject) {
      const subjectRoles = subject.id === actor.id ? roles : await rolesOf(ctx, subject);
      flag = {
        kind: 'shared',
        userId: subject.id,
        readableWorkspaceIds: subject.active ? readableWorkspaceIds(subjectRoles) : [],
      };
    }
  }

  const name = query.name?.trim();
  const { rows, total } = await listProjectsPage(db, {
    scope,
    viewerId: actor?.id ?? null,
    nameContains: name ? name : undefined,
    workspaceNames: [query.namespace, query.onlyNamespace].filter(
      (n): n is string => n !== undefined && n !== '',
    ),
    updatedSince:
      query.lastUpdatedIn === undefined
        ? undefined
        : new Date(ctx.now().getTime() - query.lastUpdatedIn * 24 * 3600 * 1000),
    flag,
    order: projectOrder(query),
    ...window,
  });
  assertPageExists(query.page, rows.length);

  return {
    projects: rows.map((row) => toListItem(actor, row, roles)),
    count: total,
  };
}

/** "N days", "1 day", "N hours", "1 hour" or "N/A" until a removed project is purged. */
export function timeUntilPurge(removedAt: Date, now: Date): string {
  const left =
    removedAt.getTime() + DELETED_PROJECT_EXPIRATION_DAYS * 24 * 3600 * 1000 - now.getTime();
  const days = Math.floor(left / (24 * 3600 * 1000));
  if (days > 1) return `${days} days`;
  if (days === 1) return '1 day';
  const hours = Math.floor(left / (3600 * 1000));
  if (hours > 1) return `${hours} hours`;
  if (hours === 1) return '1 hour';
  return 'N/A';
}

/**
 * POST /v1/project/:namespace without a template: an empty private (or public) project at v0
 * (with one: templates.ts). Checks in the reference's order: name, workspace, permission
 * (workspace admin), name clash.
 * The creator becomes the project's owner (the reference leaves access to the workspace role;
 * our issue asks for an owner, so access survives a later change of workspace role).
 */
export async function createProject(
  ctx: AppContext,
  user: User | null,
  namespace: string,
  input: CreateProjectBody,
  meta: ClientMeta & { deviceId: string | null },
): Promise<void> {
  assertSignedIn(user);
  const { name, workspace } = await newProjectTarget(ctx, user, namespace, input.name);
  const db = ctx.database.db;
  try {
    await db.transaction(async (tx) => {
      const project = await insertProjectWithInitialVersion(tx, {
        workspaceId: workspace.id,
        name,
        public: input.public ?? false,
        creatorId: user.id,
        at: ctx.now(),
        userAgent: meta.userAgent,
        ip: meta.ip,
        deviceId: meta.deviceId,
      });
      await upsertProjectMembers(tx, project.id, [{ userId: user.id, role: 'owner' }]);
      await recordAudit(ctx, tx, {
        action: 'project.created',
        project: { id: project.id, name, workspaceId: workspace.id },
        workspace: { id: workspace.id, name: workspace.name },
        details: { public: input.public ?? false },
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const winner = await findProjectByName(db, workspace.id, name);
    throw projectNameClash(winner?.removedAt ?? null, ctx.now());
  }
}

/**
 * The checks before a new project (blank or from a template) in the reference's order: name
 * (trimmed), workspace, permission (workspace admin), name clash.
 */
export async function newProjectTarget(
  ctx: AppContext,
  user: User,
  namespace: string,
  rawName: string | undefined,
): Promise<{ name: string; workspace: Workspace }> {
  const name = (rawName ?? '').trim();
  const nameProblem = projectNameError(name);
  if (nameProblem) throw badRequest(nameProblem);
  const workspace = await creatableWorkspace(ctx, user, namespace);
  const existing = await findProjectByName(ctx.database.db, workspace.id, name);
  if (existing) throw projectNameClash(existing.removedAt, ctx.now());
  return { name, workspace };
}

/** The workspace `namespace` if the user may create projects in it, else the 404 or 403. */
export async function creatableWorkspace(
  ctx: AppContext,
  user: User,
  namespace: string,
): Promise<Workspace> {
  const target = await workspaceFor(ctx, user, namespace);
  if (!target) {
    throw notFound(
      namespace.toLowerCase() === user.username.toLowerCase()
        ? WORKSPACE_DOES_NOT_EXIST_UPDATE
        : WORKSPACE_DOES_NOT_EXIST,
    );
  }
  if (!canCreateProject(target.role)) throw forbidden(NO_WORKSPACE_PERMISSIONS);
  return target.workspace;
}

/** The 409 for a name taken in the workspace (by a live project or one scheduled for deletion). */
export function projectNameClash(removedAt: Date | null, now: Date): HttpProblem {
  if (removedAt) {
    return new HttpProblem(
      409,
      `Project with the same name is scheduled for deletion, you can create a project with this name in ${timeUntilPurge(removedAt, now)}`,
    );
  }
  return new HttpProblem(409, PROJECT_EXISTS);
}
