/**
 * The whole data model (PostgreSQL dialect; the same schema runs on embedded PGlite and on
 * PostgreSQL through node-postgres).
 *
 * Changing it: edit this file, run `npm run db:generate` to append a new migration in
 * ./migrations, and never edit a migration that has been committed.
 *
 * Conventions: timestamps are timestamptz (UTC); sizes are bigint read as JS numbers (safe up
 * to 8 PiB); names that are unique case-insensitively use a unique index on lower(column).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import type { TokenScope } from '../schemas/personal-tokens';
import {
  PROJECT_ROLES,
  WORKSPACE_ROLES,
  type ProjectRole,
  type WorkspaceRole,
} from '../schemas/roles';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const bytes = (name: string) => bigint(name, { mode: 'number' });

/** The role enums, from the one declaration of roles and their ranks (schemas/roles.ts). */
export const workspaceRole = pgEnum('workspace_role', WORKSPACE_ROLES);
export const projectRole = pgEnum('project_role', PROJECT_ROLES);
export { PROJECT_ROLES, WORKSPACE_ROLES, type ProjectRole, type WorkspaceRole };

export const FILE_CHANGES = ['create', 'update', 'delete', 'update_diff'] as const;
export type FileChange = (typeof FILE_CHANGES)[number];
export const fileChange = pgEnum('file_change', FILE_CHANGES);

/** NULL status = pending. */
export const ACCESS_REQUEST_STATUSES = ['accepted', 'declined', 'expired'] as const;
export type AccessRequestStatus = (typeof ACCESS_REQUEST_STATUSES)[number];
export const accessRequestStatus = pgEnum('access_request_status', ACCESS_REQUEST_STATUSES);

// ---------------------------------------------------------------------------------------
// Accounts

export const workspaces = pgTable(
  'workspaces',
  {
    id: serial('id').primaryKey(),
    name: varchar('name', { length: 80 }).notNull(),
    /** Storage allowance in bytes. */
    storage: bytes('storage').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('workspaces_name_lower_idx').on(sql`lower(${t.name})`)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 80 }).notNull(),
    /** Nullable: anonymised closed accounts keep their row without an email. */
    email: varchar('email', { length: 120 }),
    /** argon2id PHC string; NULL = cannot sign in with a password. */
    passwordHash: text('password_hash'),
    active: boolean('active').notNull().default(true),
    isAdmin: boolean('is_admin').notNull().default(false),
    verifiedEmail: boolean('verified_email').notNull().default(false),
    /**
     * A new address the user asked for and has not confirmed yet (services/account.ts): used
     * for nothing (sign-in, resets, invitations, mail) until its link is followed; `email`
     * stays the account's address until then.
     */
    pendingEmail: varchar('pending_email', { length: 120 }),
    receiveNotifications: boolean('receive_notifications').notNull().default(true),
    firstName: varchar('first_name', { length: 256 }),
    lastName: varchar('last_name', { length: 256 }),
    registrationDate: ts('registration_date').notNull().defaultNow(),
    lastSignedIn: ts('last_signed_in'),
    /** Set when the account is closed; anonymisation runs some days later. */
    inactiveSince: ts('inactive_since'),
    preferredWorkspaceId: integer('preferred_workspace_id').references(() => workspaces.id, {
      onDelete: 'set null',
    }),
    /** Sessions and bearer tokens issued before this instant are no longer valid. */
    passwordChangedAt: ts('password_changed_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
  ],
);

/**
 * Accounts at an OpenID Connect provider linked to users (services/oidc/): the provider's
 * issuer and its `sub` for the user. A user is linked when they first sign in with the
 * provider (created, or matched by a verified email).
 */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: ts('created_at').notNull(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    unique('user_identities_issuer_subject_key').on(t.issuer, t.subject),
    index('user_identities_user_idx').on(t.userId),
  ],
);

/** Browser sessions. Only the SHA-256 of the random cookie value is stored. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const loginHistory = pgTable(
  'login_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    at: ts('at').notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    deviceId: text('device_id'),
  },
  (t) => [index('login_history_user_at_idx').on(t.userId, t.at)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: workspaceRole('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
  ],
);

/**
 * Invitations to a workspace by email (services/workspace-members/invitations.ts). Only the SHA-256 of
 * the link's random token is stored; a row is removed when accepted or revoked.
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: serial('id').primaryKey(),
    /** The invitation as the invited user's profile names it (`invitations[].uuid`). */
    uuid: uuid('uuid').notNull().defaultRandom(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 120 }).notNull(),
    role: workspaceRole('role').notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('workspace_invitations_token_idx').on(t.tokenHash),
    uniqueIndex('workspace_invitations_uuid_idx').on(t.uuid),
    uniqueIndex('workspace_invitations_email_idx').on(t.workspaceId, sql`lower(${t.email})`),
  ],
);

// ---------------------------------------------------------------------------------------
// Projects, versions and files

/**
 * Content-addressed bytes (see storage/blob-store.ts); rows here say which blobs exist.
 *
 * A blob is stored (its bytes are in the blob store under its key), or rebuilt from its
 * recipe, or both (services/file-store/): the recipe is a GeoPackage diff (`diff_key`) applied
 * to another blob (`base_key`). A version made from a diff gets a blob with a recipe and no
 * bytes (its key is the recipe's, file-store/recipe.ts); full copies are kept where the
 * checkpoint rule wants them (file-store/rule.ts). Every blob is stored or has a recipe.
 */
export const blobs = pgTable(
  'blobs',
  {
    /** SHA-256 key of the bytes (blob-key.ts), or of the recipe for a blob made from a diff. */
    key: text('key').primaryKey(),
    size: bytes('size').notNull(),
    /** SHA-1 hex of the bytes: the checksum clients speak. */
    sha1: text('sha1').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    /** The bytes are in the blob store (false: rebuilt from the recipe). */
    stored: boolean('stored').notNull().default(true),
    /** Recipe: the blob the diff applies to. */
    baseKey: text('base_key').references((): AnyPgColumn => blobs.key),
    /** Recipe: the diff (a stored blob) that makes these bytes from the base's. */
    diffKey: text('diff_key').references((): AnyPgColumn => blobs.key),
    /**
     * Page patch (services/file-store/page-patch.ts): a stored blob holding the pages that
     * differ from the base's, XOR'd with them, compressed; rebuilds use it instead of the diff
     * when present. Null: rebuilt by applying the diff.
     */
    patchKey: text('patch_key').references((): AnyPgColumn => blobs.key),
    /**
     * No page patch can be made for this version (its change is over MAX_PATCH_PAGE_BYTES):
     * it is read through its diff, and the patch is not tried again (after a restart either).
     */
    patchRefused: boolean('patch_refused').notNull().default(false),
  },
  (t) => [
    index('blobs_base_idx').on(t.baseKey),
    index('blobs_diff_idx').on(t.diffKey),
    index('blobs_patch_idx').on(t.patchKey),
    check(
      'blobs_readable',
      sql`${t.stored} OR (${t.baseKey} IS NOT NULL AND ${t.diffKey} IS NOT NULL)`,
    ),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: integer('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'restrict' }),
    name: varchar('name', { length: 255 }).notNull(),
    public: boolean('public').notNull().default(false),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    latestVersion: integer('latest_version').notNull().default(0),
    /** Bytes of the latest version's files. */
    diskUsage: bytes('disk_usage').notNull().default(0),
    /**
     * Bytes the project keeps in the blob store, all versions (what the workspace's storage
     * allowance counts, services/file-store/README.md): the distinct blobs its file history
     * references, each full copy kept whole at its size and each diff at its size.
     */
    storedBytes: bytes('stored_bytes').notNull().default(0),
    tags: text('tags')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Scheduled for deletion (kept some days, then purged). */
    removedAt: ts('removed_at'),
    removedBy: integer('removed_by').references(() => users.id, { onDelete: 'set null' }),
    lockedUntil: ts('locked_until'),
  },
  (t) => [
    unique('projects_workspace_name_key').on(t.workspaceId, t.name),
    index('projects_updated_idx').on(t.updatedAt),
    index('projects_removed_idx').on(t.removedAt),
    // Name search (`lower(name) LIKE '%…%'`) through trigrams, instead of a sequential scan.
    // fastupdate off: new names go straight into the index instead of a pending list that
    // every search scans until a VACUUM (PGlite runs no autovacuum).
    index('projects_name_trgm_idx')
      .using('gin', sql`lower(${t.name}) gin_trgm_ops`)
      .with({ fastupdate: false }),
  ],
);

export const projectMembers = pgTable(
  'project_members',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: projectRole('role').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.userId] }),
    index('project_members_user_idx').on(t.userId),
  ],
);

export const projectVersions = pgTable(
  'project_versions',
  {
    id: serial('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** The version number: v0 is the empty initial version, then v1, v2, ... */
    name: integer('name').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    userAgent: text('user_agent'),
    ip: text('ip'),
    deviceId: text('device_id'),
    /** Total bytes of all files in this version. */
    projectSize: bytes('project_size').notNull().default(0),
    /** Summary of the push: {added, updated, removed} file entries. */
    changes: jsonb('changes'),
    /** Row-level changeset summaries per GeoPackage path. */
    changesets: jsonb('changesets'),
    /** pending | done | failed | not_applicable */
    changesetStatus: text('changeset_status'),
    /** A version made by time travel: what it did (schemas/restore.ts VersionOrigin); else null. */
    origin: jsonb('origin'),
  },
  (t) => [unique('project_versions_project_name_key').on(t.projectId, t.name)],
);

export const fileHistory = pgTable(
  'file_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => projectVersions.id, { onDelete: 'cascade' }),
    /** Denormalised project_versions.name, for history queries by path. */
    versionName: integer('version_name').notNull(),
    path: text('path').notNull(),
    change: fileChange('change').notNull(),
    size: bytes('size').notNull().default(0),
    /** SHA-1 hex of the full file. */
    checksum: text('checksum'),
    /** Blob holding the full file; NULL for deletes. */
    blobKey: text('blob_key').references(() => blobs.key),
    mtime: ts('mtime'),
    /** For update_diff: {path, size, checksum, blob_key} of the diff file. */
    diff: jsonb('diff'),
  },
  (t) => [
    unique('file_history_version_path_key').on(t.versionId, t.path),
    index('file_history_project_path_version_idx').on(t.projectId, t.path, t.versionName),
    index('file_history_blob_idx').on(t.blobKey),
    // Blob garbage collection asks whether any diff still references a blob.
    index('file_history_diff_blob_idx')
      .on(sql`(${t.diff} ->> 'blob_key')`)
      .where(sql`${t.diff} IS NOT NULL`),
  ],
);

/** Changeset states: waiting to be computed, computed, or impossible to compute. */
export const CHANGESET_STATUSES = ['pending', 'done', 'error'] as const;
export type ChangesetStatus = (typeof CHANGESET_STATUSES)[number];

/**
 * Row-level changesets of .gpkg/.sqlite files updated by a version (one row per file), and at
 * the same time the queue of their computation: a pending row is claimed (FOR UPDATE SKIP
 * LOCKED) by setting `locked_until`, computed, then stored as done or error.
 */
export const fileChangesets = pgTable(
  'file_changesets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => projectVersions.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    /** The file before and after the version. */
    oldBlobKey: text('old_blob_key').notNull(),
    newBlobKey: text('new_blob_key').notNull(),
    status: text('status').$type<ChangesetStatus>().notNull().default('pending'),
    /** [{table, insert, update, delete}] once done. */
    summary: jsonb('summary'),
    /** The change list served by the changeset call, once done. */
    changes: jsonb('changes'),
    /** Bytes of the change list as JSON. */
    size: bytes('size').notNull().default(0),
    /** The text shown when the changes cannot be calculated. */
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    /** Claimed by a worker until then. */
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
    computedAt: ts('computed_at'),
  },
  (t) => [
    unique('file_changesets_version_path_key').on(t.versionId, t.path),
    index('file_changesets_pending_idx')
      .on(t.id)
      .where(sql`${t.status} = 'pending'`),
  ],
);

/** The files of each project's latest version. */
export const projectFiles = pgTable(
  'project_files',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    size: bytes('size').notNull(),
    checksum: text('checksum').notNull(),
    mtime: ts('mtime'),
    blobKey: text('blob_key')
      .notNull()
      .references(() => blobs.key),
    historyId: bigint('history_id', { mode: 'number' })
      .notNull()
      .references(() => fileHistory.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.path] }),
    index('project_files_blob_idx').on(t.blobKey),
  ],
);

// ---------------------------------------------------------------------------------------
// Uploads (push transactions)

/** A running push. One per project: a second push is refused while this row exists. */
export const uploads = pgTable(
  'uploads',
  {
    /** The transaction id given to the client. */
    id: uuid('id').primaryKey().defaultRandom(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    baseVersion: integer('base_version').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The validated push plan: {added, updated, removed} with chunk ids. */
    changes: jsonb('changes').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastPingAt: ts('last_ping_at').notNull().defaultNow(),
    /** open | finishing (v1 finish running) | committing (v2 version being made) */
    status: text('status').notNull().default('open'),
  },
  (t) => [
    unique('uploads_project_key').on(t.projectId),
    index('uploads_last_ping_idx').on(t.lastPingAt),
  ],
);

/** Chunks acknowledged for an upload (acknowledged = durable on disk). */
export const uploadChunks = pgTable(
  'upload_chunks',
  {
    uploadId: uuid('upload_id')
      .notNull()
      .references(() => uploads.id, { onDelete: 'cascade' }),
    chunkId: text('chunk_id').notNull(),
    filePath: text('file_path').notNull(),
    chunkIndex: integer('chunk_index').notNull(),
    size: bytes('size').notNull(),
    sha1: text('sha1'),
    /** SHA-256 (hex) of the chunk's bytes: a leaf of the file's blob key (blob-key.ts). */
    sha256: text('sha256'),
    receivedAt: ts('received_at').notNull().defaultNow(),
    /** How many times the chunk's bytes were written (a re-sent chunk is written again). */
    writes: integer('writes').notNull().default(1),
  },
  (t) => [primaryKey({ columns: [t.uploadId, t.chunkId] })],
);

// ---------------------------------------------------------------------------------------
// Access requests and jobs

export const accessRequests = pgTable(
  'access_requests',
  {
    id: serial('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: ts('resolved_at'),
    /** NULL = pending. */
    status: accessRequestStatus('status'),
    /** Role granted on accept. */
    permission: projectRole('permission').notNull().default('reader'),
  },
  (t) => [
    // Only one pending request per (project, user).
    uniqueIndex('access_requests_pending_idx')
      .on(t.projectId, t.requestedBy)
      .where(sql`${t.status} IS NULL`),
    index('access_requests_requested_by_idx').on(t.requestedBy),
  ],
);

// ---------------------------------------------------------------------------------------
// Read-only view links of private projects (issue 32, services/view-links.ts)

/**
 * A link that shows a project's map and attribute tables to whoever holds it until it
 * expires or is revoked. The token is not stored: it is the id and an HMAC of the id and
 * `salt` under SECRET_KEY, so an owner can copy the link again and the database alone does
 * not give it away.
 */
export const viewLinks = pgTable(
  'view_links',
  {
    id: serial('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 200 }).notNull().default(''),
    salt: text('salt').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    revokedBy: integer('revoked_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('view_links_project_idx').on(t.projectId)],
);

/** Each opening of a view link (who, from where, when). */
export const viewLinkUses = pgTable(
  'view_link_uses',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    linkId: integer('link_id')
      .notNull()
      .references(() => viewLinks.id, { onDelete: 'cascade' }),
    usedAt: ts('used_at').notNull().defaultNow(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('view_link_uses_link_idx').on(t.linkId, t.usedAt)],
);

export type ViewLink = typeof viewLinks.$inferSelect;
export type ViewLinkUse = typeof viewLinkUses.$inferSelect;

/**
 * Sign-in attempts for the rate limits (auth/sign-in-limits.ts), shared by all instances.
 * A row is written before the password is checked and removed again when it was right, so
 * what stays are failures. `account` is `user:<id>` for an existing user, else
 * `login:<lower-cased login>`; `address` is the client address.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    account: text('account').notNull(),
    address: text('address').notNull(),
    failedAt: ts('failed_at').notNull(),
  },
  (t) => [
    index('sign_in_failures_account_idx').on(t.account, t.failedAt),
    index('sign_in_failures_address_idx').on(t.address, t.failedAt),
    index('sign_in_failures_failed_at_idx').on(t.failedAt),
  ],
);

/**
 * Requests counted by the rolling-window limits of auth/rate-limits.ts (mails sent, guessed
 * invitation links), shared by all instances. `kind` names the limit; `subject` is what is
 * protected (a recipient address, lower-cased), `source` who asks (a client address or
 * `user:<id>`); a row is the request's, written before counting and removed again when the
 * request does not count.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    subject: text('subject'),
    source: text('source').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [
    index('rate_limit_hits_subject_idx').on(t.kind, t.subject, t.at),
    index('rate_limit_hits_source_idx').on(t.kind, t.source, t.at),
    index('rate_limit_hits_kind_at_idx').on(t.kind, t.at),
  ],
);

/**
 * Chunks of the v2 push (services/push/v2.ts): the server-issued id, the project it was sent
 * to, its size and SHA-1, and when it arrived. The bytes are in the v2 chunk staging
 * (storage/chunk-store.ts); a chunk is kept until a version uses it or the sweep job removes
 * it a day after it arrived.
 */
export const v2Chunks = pgTable(
  'v2_chunks',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    size: integer('size').notNull(),
    sha1: text('sha1').notNull(),
    uploadedAt: ts('uploaded_at').notNull(),
  },
  (t) => [index('v2_chunks_uploaded_at_idx').on(t.uploadedAt)],
);

/**
 * Merged GeoPackage diffs served to v2 pulls (services/pull/merged-diffs.ts): the one diff
 * that replaces a chain of consecutive diffs of a file, found by `cache_key`, a hash of the
 * chain's diff blob keys in order, so a chain is merged once. The bytes are an ordinary
 * blob; purging the project releases it like the project's other blobs.
 */
export const mergedDiffs = pgTable(
  'merged_diffs',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    cacheKey: text('cache_key').notNull(),
    blobKey: text('blob_key')
      .notNull()
      .references(() => blobs.key),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.cacheKey] }),
    index('merged_diffs_blob_idx').on(t.blobKey),
  ],
);

/**
 * Files whose storage is due to be arranged (services/file-store/tasks.ts): after a version
 * made from a diff, the latest version written whole (once `due_at` passed) and older
 * versions left as their diffs where the checkpoint rule allows; with `convert` (the admin
 * command `storage convert`), versions stored whole before diffs were stored given their
 * recipes first. A claimed task is held until `locked_until`; `queued_at` tells a task queued
 * again while it ran.
 */
export const fileStoreTasks = pgTable(
  'file_store_tasks',
  {
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    path: text('path').notNull(),
    dueAt: ts('due_at').notNull(),
    queuedAt: ts('queued_at').notNull(),
    convert: boolean('convert').notNull().default(false),
    lockedUntil: ts('locked_until'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.path] }),
    index('file_store_tasks_due_idx').on(t.dueAt),
  ],
);

/**
 * Bytes to delete from the blob store: a full copy the checkpoint rule no longer keeps (its
 * row says stored = false). Deleted by file-store/tasks.ts under the blob row's lock, so a
 * copy written again meanwhile is never lost; a crash leaves the row for the next sweep.
 */
export const blobDeletions = pgTable('blob_deletions', {
  key: text('key').primaryKey(),
  createdAt: ts('created_at').notNull(),
});

/**
 * Progress of the admin command `storage convert` (one row, id 1): files queued and done,
 * versions given a recipe, full copies dropped and their bytes.
 */
export const fileStoreConversion = pgTable('file_store_conversion', {
  id: integer('id').primaryKey(),
  startedAt: ts('started_at').notNull(),
  finishedAt: ts('finished_at'),
  filesTotal: integer('files_total').notNull().default(0),
  filesDone: integer('files_done').notNull().default(0),
  versionsWithRecipe: integer('versions_with_recipe').notNull().default(0),
  copiesDropped: integer('copies_dropped').notNull().default(0),
  bytesFreed: bytes('bytes_freed').notNull().default(0),
});

/**
 * Pushes that made a version, by their upload (transaction) id, so a finish retried after
 * its answer was lost (or after a crash right after the commit) is answered with the version
 * (services/push/recovery.ts). Removed by the push sweep job after PUSH_ID_TTL_MS.
 */
export const pushCommits = pgTable(
  'push_commits',
  {
    uploadId: uuid('upload_id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('push_commits_created_at_idx').on(t.createdAt)],
);

/**
 * Outcomes of push requests sent with an `Mm-push-id` header (services/push/push-id.ts): a
 * repeated request with the same id gets the stored answer again. `status` is null while the
 * first request runs (it refreshes pinged_at); removed by the push sweep job after 30 days.
 */
export const pushRequests = pgTable(
  'push_requests',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    pushId: uuid('push_id').notNull(),
    /** The request the id was first used for (method, route and its target). */
    target: text('target').notNull(),
    status: integer('status'),
    contentType: text('content_type'),
    body: text('body'),
    createdAt: ts('created_at').notNull(),
    pingedAt: ts('pinged_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.pushId] }),
    index('push_requests_created_at_idx').on(t.createdAt),
  ],
);

// ---------------------------------------------------------------------------------------
// Personal access tokens and the audit log (issue 33)

/**
 * Personal access tokens (services/personal-tokens.ts). Only the SHA-256 of the token's
 * secret is stored; `hint` is its first characters, shown in the list.
 */
export const personalTokens = pgTable(
  'personal_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    scope: text('scope').$type<TokenScope>().notNull(),
    secretHash: text('secret_hash').notNull(),
    hint: text('hint').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    lastUsedAt: ts('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('personal_tokens_secret_hash_idx').on(t.secretHash),
    index('personal_tokens_user_idx').on(t.userId),
    check('personal_tokens_scope_check', sql`${t.scope} in ('read', 'write')`),
  ],
);

/**
 * The audit log (services/audit.ts): who did what, when, from where, to what. No foreign
 * keys: an entry outlives the user, workspace and project it names (their names are kept
 * as they were). Rows are only ever inserted, and deleted by the retention job.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull(),
    actorId: integer('actor_id'),
    actorName: text('actor_name'),
    ip: text('ip'),
    action: text('action').notNull(),
    workspaceId: integer('workspace_id'),
    workspaceName: text('workspace_name'),
    projectId: uuid('project_id'),
    projectName: text('project_name'),
    targetType: text('target_type'),
    targetId: text('target_id'),
    targetName: text('target_name'),
    details: jsonb('details').$type<Record<string, unknown>>(),
  },
  (t) => [
    index('audit_log_at_idx').on(t.at),
    index('audit_log_workspace_at_idx').on(t.workspaceId, t.at),
    index('audit_log_actor_idx').on(t.actorId),
  ],
);

// ---------------------------------------------------------------------------------------
// Webhooks (services/webhooks/)

/**
 * A webhook of a workspace (workspace admins) or of one project (its owners): exactly one of
 * workspace_id and project_id is set. `events` are the event types it is sent
 * (schemas/webhook-events.ts WEBHOOK_EVENTS); `secret` is `whsec_<base64>` (Standard Webhooks).
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: serial('id').primaryKey(),
    workspaceId: integer('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id').references(() => projects.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    events: text('events').array().notNull(),
    active: boolean('active').notNull().default(true),
    description: varchar('description', { length: 200 }).notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('webhooks_workspace_idx').on(t.workspaceId),
    index('webhooks_project_idx').on(t.projectId),
    check('webhooks_one_scope', sql`(${t.workspaceId} IS NULL) <> (${t.projectId} IS NULL)`),
  ],
);

/**
 * The delivery queue and its log: one row per message and webhook. The row keeps the address
 * and the secret it is sent with, so a project.deleted message outlives the project's webhooks
 * (webhook_id becomes null when the project is purged). Pending rows are claimed with a lease
 * (leased_until) under FOR UPDATE SKIP LOCKED, so each is sent by one instance at a time.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The Standard Webhooks message id (`webhook-id`), the same on every attempt. */
    messageId: text('message_id').notNull(),
    webhookId: integer('webhook_id').references(() => webhooks.id, { onDelete: 'set null' }),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body sent, exactly (signed as is). */
    payload: text('payload').notNull(),
    /** pending, delivered or failed (gave up after a day). */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: ts('created_at').notNull(),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    leasedUntil: ts('leased_until'),
    lastAttemptAt: ts('last_attempt_at'),
    responseCode: integer('response_code'),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt),
  ],
);

/** Bookkeeping for scheduled jobs that must run once across all instances. */
export const jobRuns = pgTable('job_runs', {
  name: text('name').primaryKey(),
  lastRunAt: ts('last_run_at'),
  lockedUntil: ts('locked_until'),
});

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type Workspace = typeof workspaces.$inferSelect;
export type WorkspaceInvitation = typeof workspaceInvitations.$inferSelect;
export type Session = typeof sessions.$inferSelect;
export type PersonalToken = typeof personalTokens.$inferSelect;
export type AuditEntry = typeof auditLog.$inferSelect;
export type NewAuditEntry = typeof auditLog.$inferInsert;
export type Project = typeof projects.$inferSelect;
export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type UserIdentity = typeof userIdentities.$inferSelect;
