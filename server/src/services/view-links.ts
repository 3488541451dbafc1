/**
 * Read-only view links of a project (issue 32; contract schemas/view-links.ts, routes
 * routes/view-links.ts). Owners make, list and revoke them; whoever holds one reads the
 * project's map and attribute tables (the map routes' `link`, map/index.ts) until it
 * expires or is revoked. The token is `<id>.<HMAC-SHA256 of the id and the link's salt>`
 * under a key derived from SECRET_KEY: nothing in the database alone opens a link, and an
 * owner can copy it again. Unknown, expired and revoked links are answered alike (404).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context';
import { projectScope, recordAudit } from './audit';
import { listCurrentFiles } from '../db/queries/files';
import {
  findViewLink,
  insertViewLink,
  insertViewLinkUse,
  listViewLinks as listLinks,
  listViewLinkUses,
  revokeViewLink as revokeLink,
  type ViewLinkRow,
} from '../db/queries/view-links';
import type { User, ViewLink } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { isVersionedFile } from '../schemas/protocol';
import {
  MAX_VIEW_LINK_DAYS,
  VIEW_LINK_EXPIRY,
  VIEW_LINK_NOT_FOUND,
  type CreateViewLink,
  type ViewLink as ViewLinkView,
  type ViewLinkList,
  type ViewLinkOpen,
  type ViewLinkUses,
} from '../schemas/view-links';
import { projectFor, type ProjectAccess, type ProjectRef } from './permissions';

/** Uses listed at most (the newest). */
export const MAX_LISTED_USES = 200;
const DAY = 24 * 60 * 60 * 1000;

function linkKey(secretKey: string): Buffer {
  return createHmac('sha256', secretKey).update('waymark/view-link').digest();
}

function signature(secretKey: string, link: Pick<ViewLink, 'id' | 'salt'>): string {
  return createHmac('sha256', linkKey(secretKey))
    .update(`${link.id}.${link.salt}`)
    .digest('base64url');
}

export function viewLinkToken(secretKey: string, link: Pick<ViewLink, 'id' | 'salt'>): string {
  return `${link.id}.${signature(secretKey, link)}`;
}

function statusOf(link: ViewLink, now: Date): ViewLinkView['status'] {
  if (link.revokedAt) return 'revoked';
  return link.expiresAt.getTime() <= now.getTime() ? 'expired' : 'active';
}

/** The link a token names while it lasts, or null (unknown, forged, expired, revoked). */
async function liveLink(ctx: AppContext, token: string): Promise<ViewLink | null> {
  const match = /^(\d{1,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const link = await findViewLink(ctx.database.db, Number(match[1]));
  if (!link) return null;
  const expected = Buffer.from(signature(ctx.config.secretKey, link));
  const given = Buffer.from(match[2]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return statusOf(link, ctx.now()) === 'active' ? link : null;
}

/** The project a live link opens, with read access only; 404 otherwise. */
async function linkAccess(ctx: AppContext, link: ViewLink | null): Promise<ProjectAccess> {
  if (!link) throw notFound(VIEW_LINK_NOT_FOUND);
  const access = await projectFor(ctx, null, { id: link.projectId }, null).catch(() => null);
  if (!access) throw notFound(VIEW_LINK_NOT_FOUND);
  return {
    ...access,
    directRole: null,
    role: null,
    permissions: { read: true, upload: false, update: false, delete: false },
  };
}

/**
 * Read access to the project `ref` through the link `token` (the map routes): 404 when the
 * link has ended or opens another project.
 */
export async function viewLinkAccess(
  ctx: AppContext,
  ref: ProjectRef,
  token: string,
): Promise<ProjectAccess> {
  const access = await linkAccess(ctx, await liveLink(ctx, token));
  const same =
    'id' in ref
      ? ref.id.toLowerCase() === access.project.id
      : ref.name === access.project.name && ref.namespace === access.workspace.name;
  if (!same) throw notFound(VIEW_LINK_NOT_FOUND);
  return access;
}

function linkView(ctx: AppContext, row: ViewLinkRow): ViewLinkView {
  return {
    id: row.id,
    label: row.label,
    token: viewLinkToken(ctx.config.secretKey, row),
    status: statusOf(row, ctx.now()),
    created_at: row.createdAt.toISOString(),
    created_by: row.creator,
    expires_at: row.expiresAt.toISOString(),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    uses: row.uses,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listViewLinks(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
): Promise<ViewLinkList> {
  const access = await projectFor(ctx, caller, ref, 'update');
  const rows = await listLinks(ctx.database.db, access.project.id);
  return { links: rows.map((row) => linkView(ctx, row)) };
}

export async function createViewLink(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  body: CreateViewLink,
): Promise<ViewLinkView> {
  const access = await projectFor(ctx, caller, ref, 'update');
  const now = ctx.now();
  const expiresAt = new Date(body.expires_at);
  const ms = expiresAt.getTime() - now.getTime();
  if (Number.isNaN(ms) || ms <= 0 || ms > MAX_VIEW_LINK_DAYS * DAY)
    throw badRequest(VIEW_LINK_EXPIRY);
  const link = await ctx.database.db.transaction(async (tx) => {
    const made = await insertViewLink(tx, {
      projectId: access.project.id,
      label: (body.label ?? '').trim(),
      salt: randomBytes(16).toString('base64url'),
      createdBy: caller.id,
      createdAt: now,
      expiresAt,
    });
    await recordAudit(ctx, tx, {
      action: 'project.view_link_created',
      ...projectScope(access),
      target: { type: 'view_link', id: made.id, name: made.label },
      details: { expires_at: expiresAt.toISOString() },
    });
    return made;
  });
  ctx.log.info({ project: access.project.id, link: link.id, by: caller.id }, 'View link made');
  return linkView(ctx, { ...link, creator: caller.username, uses: 0, lastUsedAt: null });
}

/** Revokes a link of the project (owners); revoking it again changes nothing. */
export async function revokeViewLink(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  id: number,
): Promise<void> {
  const access = await projectFor(ctx, caller, ref, 'update');
  const revoked = await ctx.database.db.transaction(async (tx) => {
    const link = await findViewLink(tx, id);
    if (!(await revokeLink(tx, access.project.id, id, caller.id, ctx.now()))) return false;
    if (link?.revokedAt) return true;
    await recordAudit(ctx, tx, {
      action: 'project.view_link_revoked',
      ...projectScope(access),
      target: { type: 'view_link', id, name: link?.label ?? null },
    });
    return true;
  });
  if (!revoked) throw notFound(VIEW_LINK_NOT_FOUND);
  ctx.log.info({ project: access.project.id, link: id, by: caller.id }, 'View link revoked');
}

export async function viewLinkUses(
  ctx: AppContext,
  caller: User,
  ref: ProjectRef,
  id: number,
): Promise<ViewLinkUses> {
  const access = await projectFor(ctx, caller, ref, 'update');
  const link = await findViewLink(ctx.database.db, id);
  if (!link || link.projectId !== access.project.id) throw notFound(VIEW_LINK_NOT_FOUND);
  const rows = await listViewLinkUses(ctx.database.db, id, MAX_LISTED_USES);
  return {
    uses: rows.map((row) => ({
      used_at: row.usedAt.toISOString(),
      username: row.username,
      ip: row.ip,
      user_agent: row.userAgent,
    })),
  };
}

/** GET /app/view/{token}: what the link's page shows; the use is logged. */
export async function openViewLink(
  ctx: AppContext,
  token: string,
  visitor: { user: User | null; ip: string | null; userAgent: string | null },
): Promise<ViewLinkOpen> {
  const link = await liveLink(ctx, token);
  const access = await linkAccess(ctx, link);
  const now = ctx.now();
  await insertViewLinkUse(ctx.database.db, {
    linkId: link!.id,
    usedAt: now,
    userId: visitor.user?.id ?? null,
    ip: visitor.ip,
    userAgent: visitor.userAgent,
  });
  ctx.log.info({ project: access.project.id, link: link!.id, ip: visitor.ip }, 'View link used');
  const files = await listCurrentFiles(ctx.database.db, access.project.id);
  return {
    namespace: access.workspace.name,
    name: access.project.name,
    label: link!.label,
    expires_at: link!.expiresAt.toISOString(),
    latest_version: `v${access.project.latestVersion}`,
    map_files: files.map((file) => file.path).filter((path) => isVersionedFile(path)),
  };
}
