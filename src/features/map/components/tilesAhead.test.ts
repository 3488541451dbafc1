import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchTileAhead, peekTileBody, takeTileBody } from './tilesAhead';

const fetched = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>();

afterEach(() => {
  fetched.mockReset();
  vi.unstubAllGlobals();
});

function answer(status: number, body?: Uint8Array<ArrayBuffer>): Response {
  return new Response(status === 204 ? null : (body ?? new Uint8Array([1, 2, 3])), { status });
}

describe('tiles fetched ahead of the map', () => {
  it('hands a tile fetched ahead to the map once, without asking the server again', async () => {
    vi.stubGlobal('fetch', fetched);
    fetched.mockImplementation(() => Promise.resolve(answer(200, new Uint8Array([7, 8]))));
    fetchTileAhead('/t/1');
    expect(fetched).toHaveBeenCalledTimes(1);
    // Through the page's transport, with its headers.
    expect(fetched.mock.calls[0]![1]?.headers).toMatchObject({ 'X-Client': 'vue' });
    // Read by the map drawn out of sight: still there for the tab's map.
    expect(new Uint8Array((await peekTileBody('/t/1'))!)).toEqual(new Uint8Array([7, 8]));
    expect(new Uint8Array((await takeTileBody('/t/1'))!)).toEqual(new Uint8Array([7, 8]));
    expect(fetched).toHaveBeenCalledTimes(1);
    // Fetched ahead again (the next intent) within the minute: the map has it already.
    fetchTileAhead('/t/1');
    expect(fetched).toHaveBeenCalledTimes(1);
    // Asked again by the map (its own cache let it go): a request.
    await takeTileBody('/t/1');
    expect(fetched).toHaveBeenCalledTimes(2);
    expect(peekTileBody('/t/1')).toBeNull();
  });

  it('reads an empty tile as no body, and forgets a failure', async () => {
    vi.stubGlobal('fetch', fetched);
    fetched.mockResolvedValueOnce(answer(204));
    fetchTileAhead('/t/empty');
    expect(await takeTileBody('/t/empty')).toBeNull();

    fetched.mockResolvedValueOnce(answer(503));
    fetchTileAhead('/t/failed');
    // Through the page's transport: a refusal is its ApiError, with the status.
    await expect(peekTileBody('/t/failed')).rejects.toMatchObject({ status: 503 });
    // The failure is not handed over: the map asks the server itself.
    fetched.mockResolvedValueOnce(answer(200));
    expect(await takeTileBody('/t/failed')).toBeInstanceOf(ArrayBuffer);
    expect(fetched).toHaveBeenCalledTimes(3);
  });
});
