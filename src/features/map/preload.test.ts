import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer, json } from '@/test/fakeServer';
import { layersQueryOptions } from './api/map';
import { prefetchMapLayers, whenIdle } from './preload';

afterEach(() => {
  vi.unstubAllGlobals();
});

const LAYERS = 'GET /app/map/ns/survey/layers';

describe('preparing the Map tab', () => {
  it('prefetches the layers the tab opens on: the first GeoPackage, latest version', async () => {
    const server = fakeServer({
      [LAYERS]: () => json({ file: 'a.gpkg', version: 'v3', checksum: 'x', layers: [] }),
    });
    const queryClient = new QueryClient();
    const project = {
      namespace: 'ns',
      name: 'survey',
      files: [{ path: 'notes.txt' }, { path: 'b.gpkg' }, { path: 'a.gpkg' }],
    };
    prefetchMapLayers(queryClient, project);
    // Asked again while on its way (pointer over, then press): one request.
    prefetchMapLayers(queryClient, project);
    const source = { namespace: 'ns', projectName: 'survey', file: 'a.gpkg' };
    await vi.waitFor(() =>
      expect(queryClient.getQueryData(layersQueryOptions(source).queryKey)).toMatchObject({
        version: 'v3',
      }),
    );
    expect(server.calls(LAYERS)).toHaveLength(1);
    expect(new URL(server.calls(LAYERS)[0]!.url, 'http://x').searchParams.get('file')).toBe(
      'a.gpkg',
    );
  });

  it('asks for nothing for a project without a GeoPackage', () => {
    const server = fakeServer({});
    prefetchMapLayers(new QueryClient(), { namespace: 'ns', name: 'survey', files: [] });
    expect(server.requests).toHaveLength(0);
  });

  it('runs the idle work once, unless cancelled first', async () => {
    // Cancelled first, so its moment comes before the other's: by then it would have run.
    const skipped = vi.fn();
    whenIdle(skipped)();
    const ran = vi.fn();
    whenIdle(ran);
    await vi.waitFor(() => expect(ran).toHaveBeenCalledTimes(1));
    expect(skipped).not.toHaveBeenCalled();
  });
});
