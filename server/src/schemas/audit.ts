/**
 * The audit log (issue 33): who did what, when, from which address, to what. Workspace
 * admins read their workspaces' entries, the superuser all (account events such as sign-in
 * belong to no workspace: the superuser's only). Nothing changes an entry; the retention
 * setting (AUDIT_RETENTION_DAYS) deletes old ones.
 *
 * - GET /app/audit      AuditQuery → AuditPage (newest first)
 * - GET /app/audit.csv  AuditQuery without paging → text/csv, every matching entry
 */
import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE } from './audit-actions';
import { NullableInteger, NullableString, StringEnum } from './common';

export const AuditActionSchema = StringEnum(AUDIT_ACTIONS);

/** Most entries per page (the default: AUDIT_PAGE_SIZE). */
export const AUDIT_MAX_PAGE_SIZE = 200;
/** Most rows one CSV export holds (the newest). */
export const AUDIT_CSV_MAX_ROWS = 100_000;

export const AuditQuerySchema = Type.Object({
  /** Username of who acted (exact, any case). */
  user: Type.Optional(Type.String({ maxLength: 80 })),
  action: Type.Optional(AuditActionSchema),
  /** Project name (exact, any case). */
  project: Type.Optional(Type.String({ maxLength: 255 })),
  /** Entries at or after this instant (ISO 8601). */
  from: Type.Optional(Type.String({ format: 'date-time' })),
  /** Entries at or before this instant. */
  to: Type.Optional(Type.String({ format: 'date-time' })),
  /** Only this workspace's entries (the superuser; an admin's are theirs anyway). */
  workspace_id: Type.Optional(Type.Integer({ minimum: 1 })),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1 })),
  per_page: Type.Optional(
    Type.Integer({ minimum: 1, maximum: AUDIT_MAX_PAGE_SIZE, default: AUDIT_PAGE_SIZE }),
  ),
});
export type AuditQuery = Static<typeof AuditQuerySchema>;

export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  action: AuditActionSchema,
  /** Username of who acted, as it was then; null when nobody was signed in. */
  actor: NullableString(),
  actor_id: NullableInteger(),
  ip: NullableString(),
  workspace_id: NullableInteger(),
  workspace: NullableString(),
  project_id: NullableString(),
  project: NullableString(),
  /** What the action was done to: `user`, `token`, `invitation`, `version`… */
  target_type: NullableString(),
  target_id: NullableString(),
  target: NullableString(),
  /** Particulars of the action (a role, file counts, a format…). */
  details: Type.Record(Type.String(), Type.Unknown()),
});
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditPageSchema = Type.Object({
  entries: Type.Array(AuditEntrySchema),
  total: Type.Integer(),
  page: Type.Integer(),
  per_page: Type.Integer(),
  /** The workspaces the caller may read the entries of (for the filter); the superuser: all. */
  workspaces: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })),
  superuser: Type.Boolean(),
});
export type AuditPage = Static<typeof AuditPageSchema>;
