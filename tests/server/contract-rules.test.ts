/**
 * Domain rules the contract declares once for the server, the web app and SQL alike
 * (server/src/schemas/protocol.ts, roles.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  isVersionedFile,
  VERSIONED_FILE_PATTERN,
  versionNumber,
} from '../../server/src/schemas/protocol';
import {
  PROJECT_ROLES,
  WORKSPACE_ROLES,
  projectRoleRank,
  workspaceRoleRank,
} from '../../server/src/schemas/roles';
import { projectRole, workspaceRole } from '../../server/src/db/schema';
import * as permissionRules from '../../server/src/services/permissions/rules';

describe('versioned files', () => {
  it('are gpkg and sqlite files, in any case', () => {
    expect(isVersionedFile('a/b.GPKG')).toBe(true);
    expect(isVersionedFile('b.sqlite')).toBe(true);
    expect(isVersionedFile('data/survey.gpkg')).toBe(true);
  });

  it('are not their sidecars, other SQLite extensions or other files', () => {
    const others = ['b.gpkg-wal', 'b.sqlite-journal', 'b.db', 'b.spatialite', 'b.qgz', 'x/y.txt'];
    for (const path of others) expect(isVersionedFile(path)).toBe(false);
  });

  it('has a source SQL regular expressions read the same way', () => {
    expect(VERSIONED_FILE_PATTERN.source).toBe('\\.(gpkg|sqlite)$');
  });
});

describe('version names', () => {
  it('number vN, and nothing else', () => {
    expect(versionNumber('v0')).toBe(0);
    expect(versionNumber('v12')).toBe(12);
    for (const name of ['12', 'V12', 'v', 'v1.5', ' v3', 'v3 ', 'latest', '']) {
      expect(versionNumber(name)).toBeNaN();
    }
  });
});

describe('roles', () => {
  it('rank workspace roles by their order, anything else below guest', () => {
    expect(WORKSPACE_ROLES.map(workspaceRoleRank)).toEqual([0, 1, 2, 3, 4]);
    expect(workspaceRoleRank('superuser')).toBe(-1);
    expect(workspaceRoleRank(null)).toBe(-1);
  });

  it('rank project roles from 1, no role 0', () => {
    expect(PROJECT_ROLES.map(projectRoleRank)).toEqual([1, 2, 3]);
    expect(projectRoleRank(undefined)).toBe(0);
    expect(projectRoleRank('guest')).toBe(0);
  });

  it('rank with the same functions in the permission rules (one home)', () => {
    expect(permissionRules.workspaceRoleRank).toBe(workspaceRoleRank);
    expect(permissionRules.projectRoleRank).toBe(projectRoleRank);
  });

  it('are the database enums', () => {
    expect(workspaceRole.enumValues).toEqual([...WORKSPACE_ROLES]);
    expect(projectRole.enumValues).toEqual([...PROJECT_ROLES]);
  });
});
