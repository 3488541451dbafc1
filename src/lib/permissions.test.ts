// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  canAcceptAccessRequest,
  canAssignProjectRole,
  canCancelAccessRequest,
  canChangeMemberRole,
  canDeleteProject,
  canLeaveProject,
  canListWorkspaceAccessRequests,
  canManageProject,
  canRemoveMember,
  canShareProject,
  canUpload,
  effectiveWorkspaceRole,
  globalRoleOf,
  hasProjectRole,
  isProjectOwner,
  projectRoleRank,
} from './permissions';

const workspace = { id: 1, role: 'guest' };

describe('project roles', () => {
  it('rank none 0, reader 1, writer 2, owner 3 (editor as writer, as on the server)', () => {
    expect([null, 'reader', 'writer', 'owner', 'editor', 'nobody'].map(projectRoleRank)).toEqual([
      0, 1, 2, 3, 2, 0,
    ]);
    expect(hasProjectRole('owner', 'writer')).toBe(true);
    expect(hasProjectRole('reader', 'writer')).toBe(false);
    expect(isProjectOwner({ role: 'owner' })).toBe(true);
    expect(isProjectOwner({ role: 'writer' })).toBe(false);
  });

  it("follow the project's permissions for upload and deletion", () => {
    expect(canUpload({ permissions: { upload: true } })).toBe(true);
    expect(canUpload({ role: 'owner', permissions: { upload: false } })).toBe(false);
    expect(canDeleteProject({ permissions: { delete: true } })).toBe(true);
    expect(canDeleteProject(undefined)).toBe(false);
  });
});

describe('workspace and global roles', () => {
  it('make superusers owners of every workspace', () => {
    expect(effectiveWorkspaceRole('guest', true)).toBe('owner');
    expect(effectiveWorkspaceRole('writer')).toBe('writer');
    expect(effectiveWorkspaceRole(undefined)).toBeNull();
  });

  it('read the highest global role from the configuration', () => {
    expect(globalRoleOf({ global_read: false, global_write: false, global_admin: false })).toBe(
      undefined,
    );
    expect(globalRoleOf({ global_read: true })).toBe('global_read');
    expect(globalRoleOf({ global_read: true, global_write: true })).toBe('global_write');
    expect(globalRoleOf({ global_admin: true, global_read: true })).toBe('global_admin');
    expect(globalRoleOf(undefined)).toBe(undefined);
  });

  it('let workspace admins list incoming access requests', () => {
    expect(canListWorkspaceAccessRequests('admin')).toBe(true);
    expect(canListWorkspaceAccessRequests('owner')).toBe(true);
    expect(canListWorkspaceAccessRequests('writer')).toBe(false);
  });
});

describe('collaborators', () => {
  const owned = { role: 'owner', workspace_id: 1 };

  it('are managed by owners of a project in the current workspace', () => {
    expect(canManageProject(owned, workspace)).toBe(true);
    expect(canManageProject({ ...owned, workspace_id: 2 }, workspace)).toBe(false);
    expect(canManageProject({ role: 'writer', workspace_id: 1 }, workspace)).toBe(false);
    expect(canManageProject(owned, null)).toBe(false);
  });

  it('are shared with only while no global role is set', () => {
    expect(canShareProject(owned, workspace, undefined)).toBe(true);
    expect(canShareProject(owned, workspace, 'global_read')).toBe(false);
    expect(canShareProject({ role: 'reader', workspace_id: 1 }, workspace, undefined)).toBe(false);
  });

  it('are removed only from other rows, with a direct role, without a global role', () => {
    const jane = { id: 5, project_role: 'writer' };
    expect(canRemoveMember(jane, 1, undefined)).toBe(true);
    expect(canRemoveMember(jane, 5, undefined)).toBe(false);
    expect(canRemoveMember(jane, 1, 'global_write')).toBe(false);
    expect(canRemoveMember({ id: 6, project_role: null }, 1, undefined)).toBe(false);
    expect(canChangeMemberRole(jane, 5)).toBe(false);
    expect(canChangeMemberRole(jane, 1)).toBe(true);
  });

  it('never get a role above the giver’s own or above a set global role', () => {
    expect(
      ['reader', 'writer', 'owner'].map((r) =>
        canAssignProjectRole(r as 'reader', 'owner', undefined),
      ),
    ).toEqual([true, true, true]);
    expect(
      (['reader', 'writer', 'owner'] as const).map((r) =>
        canAssignProjectRole(r, 'writer', undefined),
      ),
    ).toEqual([true, true, false]);
    expect(
      (['reader', 'writer', 'owner'] as const).map((r) =>
        canAssignProjectRole(r, 'owner', 'global_read'),
      ),
    ).toEqual([true, false, false]);
  });

  it('leave only a project of the current workspace as its guest', () => {
    expect(canLeaveProject({ workspace_id: 1 }, workspace)).toBe(true);
    expect(canLeaveProject({ workspace_id: 1 }, { id: 1, role: 'reader' })).toBe(false);
    expect(canLeaveProject({ workspace_id: 2 }, workspace)).toBe(false);
  });
});

describe('access requests', () => {
  it('are accepted by owners while not expired', () => {
    expect(canAcceptAccessRequest('owner', false)).toBe(true);
    expect(canAcceptAccessRequest('owner', true)).toBe(false);
    expect(canAcceptAccessRequest('writer', false)).toBe(false);
  });

  it('are cancelled by their requester or declined by owners', () => {
    expect(canCancelAccessRequest(null, true)).toBe(true);
    expect(canCancelAccessRequest('owner', false)).toBe(true);
    expect(canCancelAccessRequest('writer', false)).toBe(false);
  });
});
