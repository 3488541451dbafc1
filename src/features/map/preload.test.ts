import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { layersQueryOptions } from './api/map';
import { prefetchMapLayers, whenIdle } from './preload';

describe('preparing the Map tab', () => {
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

describe('prefetching the Map tab’s layers', () => {
  it('asks for the layers of the file the tab shows first, and nothing without one', () => {
    const queryClient = new QueryClient();
    const prefetch = vi.spyOn(queryClient, 'prefetchQuery').mockResolvedValue();
    const project = { namespace: 'field', name: 'survey' };
    prefetchMapLayers(queryClient, {
      ...project,
      files: [{ path: 'b.gpkg' }, { path: 'notes.txt' }, { path: 'a/z.sqlite' }],
    });
    expect(prefetch).toHaveBeenCalledTimes(1);
    // The query MapPage asks first: the first map file by path, the latest version.
    expect(prefetch.mock.calls[0]![0].queryKey).toEqual(
      layersQueryOptions({ namespace: 'field', projectName: 'survey', file: 'a/z.sqlite' })
        .queryKey,
    );
    prefetchMapLayers(queryClient, { ...project, files: [{ path: 'notes.txt' }] });
    expect(prefetch).toHaveBeenCalledTimes(1);
  });
});
