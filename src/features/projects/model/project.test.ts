// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api';
import {
  canLeaveProject,
  hasGeoPackage,
  isProjectOwner,
  projectFailure,
  projectTabOf,
  visibleTabs,
} from './project';

describe('project view rules', () => {
  it('recognises owners by role', () => {
    expect(isProjectOwner({ role: 'owner' })).toBe(true);
    expect(isProjectOwner({ role: 'writer' })).toBe(false);
    expect(isProjectOwner({ role: null })).toBe(false);
    expect(isProjectOwner(undefined)).toBe(false);
  });

  it('offers Leave only for a project of the current workspace to guests', () => {
    expect(canLeaveProject({ workspace_id: 1 }, { id: 1, role: 'guest' })).toBe(true);
    expect(canLeaveProject({ workspace_id: 1 }, { id: 1, role: 'reader' })).toBe(false);
    expect(canLeaveProject({ workspace_id: 2 }, { id: 1, role: 'guest' })).toBe(false);
    expect(canLeaveProject({ workspace_id: 1 }, null)).toBe(false);
  });

  it('shows only Files to anonymous visitors, all tabs to owners', () => {
    expect(visibleTabs(false, true)).toEqual(['files']);
    expect(visibleTabs(true, false)).toEqual(['files', 'history']);
    expect(visibleTabs(true, true)).toEqual(['files', 'history', 'collaborators', 'settings']);
  });

  it('adds Map after Files, for everyone, when the project holds a GeoPackage', () => {
    expect(visibleTabs(false, false, true)).toEqual(['files', 'map']);
    expect(visibleTabs(true, false, true)).toEqual(['files', 'map', 'history']);
    expect(visibleTabs(true, true, true)).toEqual([
      'files',
      'map',
      'history',
      'collaborators',
      'settings',
    ]);
    expect(hasGeoPackage([{ path: 'a/survey.GPKG' }, { path: 'b.qgz' }])).toBe(true);
    expect(hasGeoPackage([{ path: 'survey.gpkg-wal' }, { path: 'b.qgz' }])).toBe(false);
    expect(hasGeoPackage([{ path: 'wells.sqlite' }])).toBe(true);
    expect(hasGeoPackage([{ path: 'notes.db' }, { path: 'x.sqlite-journal' }])).toBe(false);
    expect(projectTabOf('/projects/ns/p/map', 'ns', 'p')).toBe('map');
  });

  it('finds the active tab from the path', () => {
    expect(projectTabOf('/projects/ns/p/tree/a/b', 'ns', 'p')).toBe('files');
    expect(projectTabOf('/projects/ns/p/history', 'ns', 'p')).toBe('history');
    expect(projectTabOf('/projects/ns/p/settings', 'ns', 'p')).toBe('settings');
    expect(projectTabOf('/projects/ns/p/collaborators', 'ns', 'p')).toBe('collaborators');
    expect(projectTabOf('/projects/ns/River%20survey/settings', 'ns', 'River survey')).toBe(
      'settings',
    );
    expect(projectTabOf('/projects/ns/River survey/collaborators', 'ns', 'River survey')).toBe(
      'collaborators',
    );
    expect(projectTabOf('/projects/ns/other/settings', 'ns', 'p')).toBe('files');
    expect(projectTabOf('/projects/ns/a%20b/history/v2/x.gpkg', 'ns', 'a b')).toBe('history');
    expect(projectTabOf('/projects/ns/a b/history', 'ns', 'a b')).toBe('history');
    expect(projectTabOf('/projects/ns/p/compare', 'ns', 'p')).toBe('history');
    expect(projectTabOf('/projects/ns/other/history', 'ns', 'p')).toBe('files');
  });

  it('classifies load failures', () => {
    const error = (status: number) => new ApiError({ status, message: 'x' });
    expect(projectFailure(error(403))).toBe('forbidden');
    expect(projectFailure(error(404))).toBe('not-found');
    expect(projectFailure(error(409))).toBe('requested');
    expect(projectFailure(error(500))).toBe('other');
    expect(projectFailure(new Error('x'))).toBe('other');
  });
});
