/** The pure rules of the permission module (server/src/services/permissions/rules.ts). */
import { describe, expect, it } from 'vitest';
import {
  canAdministerWorkspace,
  canCreateProject,
  canOwn,
  canRead,
  canRemoveAccessRequest,
  canUseUpload,
  canWrite,
  isSuperuser,
  isWorkspaceMember,
  projectPermissions,
  workspaceRole,
  type Actor,
} from '../../server/src/services/permissions';

const config = {
  globalWorkspace: 'waymark',
  globalAdmin: false,
  globalWrite: false,
  globalRead: false,
};
const user: Actor = { id: 2, isAdmin: false, active: true };
const closed: Actor = { id: 3, isAdmin: false, active: false };
const superuser: Actor = { id: 1, isAdmin: true, active: true };

describe('workspace rules', () => {
  it('ranks guest < reader < writer < admin < owner for creating projects', () => {
    expect(canCreateProject(null)).toBe(false);
    for (const role of ['guest', 'reader', 'writer'] as const) {
      expect(canCreateProject(role), role).toBe(false);
    }
    for (const role of ['admin', 'owner'] as const) {
      expect(canCreateProject(role), role).toBe(true);
      expect(canAdministerWorkspace(role), role).toBe(true);
    }
  });

  it('applies global roles in the global workspace only, the strongest first', () => {
    const global = { ...config, globalRead: true, globalWrite: true };
    expect(workspaceRole(global, user!, 'Waymark', null)).toBe('writer');
    expect(workspaceRole(global, user!, 'team', null)).toBe('guest');
    expect(workspaceRole({ ...global, globalAdmin: true }, user!, 'waymark', null)).toBe('admin');
    expect(workspaceRole(global, user!, 'waymark', 'reader')).toBe('reader');
    expect(workspaceRole(global, superuser!, 'team', null)).toBe('owner');
  });

  it('counts everybody active in the global workspace, members and superusers elsewhere', () => {
    expect(isWorkspaceMember(config, user, 'WAYMARK', null)).toBe(true);
    expect(isWorkspaceMember(config, user, 'team', null)).toBe(false);
    expect(isWorkspaceMember(config, user, 'team', 'guest')).toBe(true);
    expect(isWorkspaceMember(config, superuser, 'team', null)).toBe(true);
    expect(isWorkspaceMember(config, closed, 'waymark', 'owner')).toBe(false);
    expect(isWorkspaceMember(config, null, 'waymark', null)).toBe(false);
  });

  it('knows superusers only while active', () => {
    expect(isSuperuser(superuser)).toBe(true);
    expect(isSuperuser({ id: 1, isAdmin: true, active: false })).toBe(false);
    expect(isSuperuser(user)).toBe(false);
    expect(isSuperuser(null)).toBe(false);
  });
});

describe('project rules', () => {
  const facts = (directRole: 'reader' | 'writer' | 'owner' | null) => ({
    public: false,
    removed: false,
    directRole,
    workspaceRole: 'guest' as const,
  });

  it('read < write < own follow the direct role', () => {
    const rows = (['reader', 'writer', 'owner'] as const).map((role) => {
      const p = projectPermissions(user, facts(role));
      return [canRead(p), canWrite(p), canOwn(p)];
    });
    expect(rows).toEqual([
      [true, false, false],
      [true, true, false],
      [true, true, true],
    ]);
    const none = projectPermissions(user, facts(null));
    expect([canRead(none), canWrite(none), canOwn(none)]).toEqual([false, false, false]);
  });

  it('lets the requester or owner rights remove an access request', () => {
    const reader = projectPermissions(user, facts('reader'));
    const owner = projectPermissions(user, facts('owner'));
    expect(canRemoveAccessRequest(user, reader, 2)).toBe(true);
    expect(canRemoveAccessRequest(user, reader, 9)).toBe(false);
    expect(canRemoveAccessRequest(user, owner, 9)).toBe(true);
    expect(canRemoveAccessRequest(null, reader, 2)).toBe(false);
    expect(canRemoveAccessRequest(closed, reader, 3)).toBe(false);
  });

  it('gives an upload to the user who started it only', () => {
    expect(canUseUpload(user, 2)).toBe(true);
    expect(canUseUpload(user, 9)).toBe(false);
    expect(canUseUpload(superuser, 2)).toBe(false);
    expect(canUseUpload(closed, 3)).toBe(false);
    expect(canUseUpload(user, null)).toBe(false);
    expect(canUseUpload(null, 2)).toBe(false);
  });
});
