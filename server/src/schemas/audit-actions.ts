/**
 * The audit log's actions and page size (schemas/audit.ts). Plain constants, no TypeBox: the
 * web app imports them at run time (tests/lint/contract-runtime-imports.test.ts).
 */

/** Every action recorded, by name (`area.verb`). */
export const AUDIT_ACTIONS = [
  'auth.sign_in',
  'auth.sign_in_failed',
  'auth.sign_out',
  'account.password_changed',
  'account.password_reset',
  'account.email_change_requested',
  'account.email_confirmed',
  'account.email_changed',
  'token.created',
  'token.revoked',
  'workspace.created',
  'workspace.member_added',
  'workspace.member_role_changed',
  'workspace.member_removed',
  'workspace.invitation_sent',
  'workspace.invitation_revoked',
  'workspace.invitation_accepted',
  'workspace.invitation_declined',
  'project.created',
  'project.renamed',
  'project.made_public',
  'project.made_private',
  'project.deleted',
  'project.restored',
  'project.share_changed',
  'project.access_request_accepted',
  'project.access_request_declined',
  'project.version_pushed',
  'project.exported',
  'project.view_link_created',
  'project.view_link_revoked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Entries per page when the query names none. */
export const AUDIT_PAGE_SIZE = 50;
