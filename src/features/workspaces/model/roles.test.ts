// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { hasWorkspaceRole, isWorkspaceAdmin, workspaceRoleRank } from './roles';

describe('workspace roles', () => {
  it('rank guest 0, reader 1, writer 2, admin 3, owner 4', () => {
    expect(['guest', 'reader', 'writer', 'admin', 'owner'].map(workspaceRoleRank)).toEqual([
      0, 1, 2, 3, 4,
    ]);
    expect(workspaceRoleRank('editor')).toBe(-1);
    expect(workspaceRoleRank(undefined)).toBe(-1);
  });
  it('compare by rank', () => {
    expect(hasWorkspaceRole('writer', 'reader')).toBe(true);
    expect(hasWorkspaceRole('reader', 'writer')).toBe(false);
  });
  it('treat admins and owners as workspace admins', () => {
    expect(isWorkspaceAdmin('owner')).toBe(true);
    expect(isWorkspaceAdmin('admin')).toBe(true);
    expect(isWorkspaceAdmin('writer')).toBe(false);
    expect(isWorkspaceAdmin(null)).toBe(false);
  });
});
