// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  collaboratorCount,
  lacksQgisProject,
  projectSize,
  recentProjectsParams,
  versionColumn,
} from './projectList';

describe('project list columns', () => {
  it('shows the version without its first character', () => {
    expect(versionColumn('v12')).toBe('12');
    expect(versionColumn('')).toBe('');
  });
  it('shows the size in MB with one decimal', () => {
    expect(projectSize(25324)).toBe('0.0 MB');
    expect(projectSize(5 * 1024 * 1024 + 200 * 1024)).toBe('5.2 MB');
  });
  it('counts readers as collaborators', () => {
    expect(collaboratorCount({ readers: [1, 2, 5] })).toBe(3);
    expect(collaboratorCount({ readers: [] })).toBe(0);
  });
  it('warns when no valid QGIS project is tagged', () => {
    expect(lacksQgisProject(['valid_qgis', 'input_use'])).toBe(false);
    expect(lacksQgisProject([])).toBe(true);
  });
});

describe('recent projects', () => {
  it('asks for 5 projects of the workspace, most recently updated first', () => {
    expect(recentProjectsParams('waymark')).toEqual({
      page: 1,
      per_page: 5,
      order_params: 'updated_desc',
      only_namespace: 'waymark',
    });
  });
});
