import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MapLayers } from '@contract/map';
import { layersQueryOptions } from './api/map';
import { prepareMapTab, whenIdle } from './preload';

describe('preparing the Map tab', () => {
  it('runs the idle work once, unless cancelled first', async () => {
    // Cancelled first, so its moment comes before the other's: by then it would have run.
    const skipped = vi.fn();
    whenIdle(skipped)();
    const ran = vi.fn();
    whenIdle(ran);
    await vi.waitFor(() => expect(ran).toHaveBeenCalledTimes(1), { timeout: 60_000 });
    expect(skipped).not.toHaveBeenCalled();
  });
});

const ANSWER: MapLayers = {
  file: 'a/z.sqlite',
  version: 'v3',
  checksum: 'c'.repeat(40),
  layers: [
    {
      name: 'trees',
      title: null,
      geometry_column: 'geom',
      geometry_type: 'POINT',
      fid_column: 'fid',
      srs_id: 3857,
      crs: 'EPSG:3857',
      crs_name: 'WGS 84 / Pseudo-Mercator',
      drawable: true,
      feature_count: 3,
      extent: [0, 0, 1000, 1000],
      extent_4326: [0, 0, 0.009, 0.009],
      extent_3857: [0, 0, 1000, 1000],
      columns: [],
    },
  ],
};

describe('preparing the Map tab’s data', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the layers of the file the tab shows first, and nothing without one', () => {
    const queryClient = new QueryClient();
    const fetchQuery = vi.spyOn(queryClient, 'fetchQuery').mockResolvedValue(ANSWER);
    const project = { namespace: 'field', name: 'survey' };
    void prepareMapTab(
      queryClient,
      { ...project, files: [{ path: 'b.gpkg' }, { path: 'notes.txt' }, { path: 'a/z.sqlite' }] },
      { idle: false },
    );
    expect(fetchQuery).toHaveBeenCalledTimes(1);
    // The query MapPage asks first: the first map file by path, the latest version.
    expect(fetchQuery.mock.calls[0]![0].queryKey).toEqual(
      layersQueryOptions({ namespace: 'field', projectName: 'survey', file: 'a/z.sqlite' })
        .queryKey,
    );
    void prepareMapTab(
      queryClient,
      { ...project, files: [{ path: 'notes.txt' }] },
      { idle: false },
    );
    expect(fetchQuery).toHaveBeenCalledTimes(1);
  });

  it('then fetches the first tiles of the answer’s version ahead, once, unless saving data', async () => {
    const queryClient = new QueryClient();
    vi.spyOn(queryClient, 'fetchQuery').mockResolvedValue(ANSWER);
    const fetched = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetched);
    const project = { namespace: 'field', name: 'survey', files: [{ path: 'a/z.sqlite' }] };
    void prepareMapTab(queryClient, project, { contentWidth: 1200, idle: false });
    await vi.waitFor(() => expect(fetched).toHaveBeenCalled(), { timeout: 60_000 });
    const urls = fetched.mock.calls.map((call) => String((call as unknown[])[0]));
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) {
      expect(url).toMatch(
        /^\/app\/map\/field\/survey\/tiles\/trees\/\d+\/\d+\/\d+\.mvt\?file=a%2Fz\.sqlite&version=v3$/,
      );
    }
    // The next intent within the minute fetches nothing more.
    const count = fetched.mock.calls.length;
    await prepareMapTab(queryClient, project, { contentWidth: 1200, idle: false });
    expect(fetched).toHaveBeenCalledTimes(count);

    // A browser asked to save data, or no place known for the map: no tiles ahead.
    vi.stubGlobal('navigator', { ...navigator, connection: { saveData: true } });
    await prepareMapTab(queryClient, project, { contentWidth: 900, idle: false });
    vi.unstubAllGlobals();
    vi.stubGlobal('fetch', fetched);
    await prepareMapTab(queryClient, project, { idle: false });
    expect(fetched).toHaveBeenCalledTimes(count);
  });
});
