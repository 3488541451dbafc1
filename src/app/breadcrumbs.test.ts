// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { collectCrumbs, pathCrumbs } from './breadcrumbs';

describe('collectCrumbs', () => {
  it('collects labels and functions of matched routes in order', () => {
    const crumbs = collectCrumbs([
      { params: {}, search: {}, pathname: '/' },
      { staticData: { crumb: 'Projects' }, params: {}, search: {}, pathname: '/projects' },
      {
        staticData: { crumb: ({ params }) => params.projectName ?? null },
        params: { namespace: 'ns', projectName: 'survey' },
        search: {},
        pathname: '/projects/ns/survey',
      },
      {
        staticData: {
          crumb: ({ params }) => [
            { label: params.version_id ?? '', to: '/h' },
            { label: 'data/a.gpkg' },
          ],
        },
        params: { version_id: 'v3' },
        search: {},
        pathname: '/projects/ns/survey/history/v3/data/a.gpkg',
      },
      { staticData: { crumb: () => null }, params: {}, search: {}, pathname: '/x' },
    ]);
    expect(crumbs).toEqual([
      { label: 'Projects', to: '/projects' },
      { label: 'survey', to: '/projects/ns/survey' },
      { label: 'v3', to: '/h' },
      { label: 'data/a.gpkg', to: '/projects/ns/survey/history/v3/data/a.gpkg' },
    ]);
  });
});

describe('pathCrumbs', () => {
  it('makes one crumb per folder', () => {
    expect(pathCrumbs('a/b c/', '/p/tree')).toEqual([
      { label: 'a', to: '/p/tree/a' },
      { label: 'b c', to: '/p/tree/a/b%20c' },
    ]);
    expect(pathCrumbs('', '/p/tree')).toEqual([]);
  });
});
