// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  PROJECT_SORT_OPTIONS,
  canCreateProject,
  orderParams,
  projectListParams,
  projectSort,
} from './projectList';

describe('projects list query', () => {
  it('maps list fields to order_params (meta.size → disk_usage, owner → namespace)', () => {
    expect(orderParams({ sortBy: 'name', sortDesc: false })).toBe('name_asc');
    expect(orderParams({ sortBy: 'name', sortDesc: true })).toBe('name_desc');
    expect(orderParams({ sortBy: 'updated', sortDesc: true })).toBe('updated_desc');
    expect(orderParams({ sortBy: 'meta.size', sortDesc: true })).toBe('disk_usage_desc');
    expect(orderParams({ sortBy: 'owner', sortDesc: false })).toBe('namespace_asc');
  });

  it('offers name asc/desc, updated desc and size desc', () => {
    expect(PROJECT_SORT_OPTIONS.map((o) => orderParams(projectSort(o.value)))).toEqual([
      'name_asc',
      'name_desc',
      'updated_desc',
      'disk_usage_desc',
    ]);
  });

  it("asks for the current workspace's projects, 25 per page, with a trimmed name", () => {
    expect(
      projectListParams(
        { kind: 'mine', workspaceName: 'waymark' },
        { page: 2, search: '  trees ', sort: 'updated_desc' },
      ),
    ).toEqual({
      page: 2,
      per_page: 25,
      order_params: 'updated_desc',
      name: 'trees',
      only_namespace: 'waymark',
      public: false,
    });
  });

  it('asks for public projects only on explore, without an empty name', () => {
    expect(
      projectListParams({ kind: 'public' }, { page: 1, search: '  ', sort: 'name_asc' }),
    ).toEqual({ page: 1, per_page: 25, order_params: 'name_asc', only_public: true });
  });

  it('restricts a namespace page to the namespace', () => {
    expect(
      projectListParams(
        { kind: 'namespace', namespace: 'ns' },
        { page: 1, search: '', sort: 'size_desc' },
      ),
    ).toEqual({ page: 1, per_page: 25, order_params: 'disk_usage_desc', only_namespace: 'ns' });
  });

  it('lets workspace admins with an email create projects', () => {
    expect(canCreateProject(true, 'a@example.com')).toBe(true);
    expect(canCreateProject(true, '')).toBe(false);
    expect(canCreateProject(true, null)).toBe(false);
    expect(canCreateProject(false, 'a@example.com')).toBe(false);
  });
});
