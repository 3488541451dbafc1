import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MAINTENANCE_MESSAGE, api } from '@/api';
import { createPushPlan, type PushFile, type PushPlan } from '../model/plan';
import type { UploadOutcome } from '../model/types';
import { createUploadBackend } from '../worker/backend';
import { FakePushServer } from '../testing/fakePushServer';
import {
  dismissUpload,
  enqueueUpload,
  onUploadSettled,
  setUploadBackendFactory,
  startUploadEngine,
  useUploads,
} from './engine';
import { blobSha1, newDatabase, testId } from '../testing/testHarness';
import { resetUploadEngineDemand, useUploadEngineWanted } from './state/engineDemand';

/** The worker's backend, built in this process on the fake server. */
function inProcessBackend(server: FakePushServer, db = newDatabase()) {
  return createUploadBackend({
    db,
    fetch: server.fetch,
    locks: null,
    channel: null,
    isOnline: () => true,
    onOnline: () => () => undefined,
    randomId: testId,
    sha1: blobSha1,
    progressIntervalMs: 0,
  });
}

/**
 * Makes the engine use the in-process backend; `delivered` collects each outcome as the backend
 * hands it to the page (whether or not anybody listens there).
 */
function useInProcessBackend(server: FakePushServer) {
  const db = newDatabase();
  const delivered: UploadOutcome[] = [];
  setUploadBackendFactory(() => {
    const backend = inProcessBackend(server, db);
    return {
      ...backend,
      start: (callbacks, token) =>
        backend.start(
          {
            ...callbacks,
            settled(outcome) {
              callbacks.settled(outcome);
              delivered.push(outcome);
            },
          },
          token,
        ),
    };
  });
  return { db, delivered };
}

/** A plan removing `file` from ws/proj at v1. */
function removal(file: PushFile): PushPlan {
  return createPushPlan(
    { id: 'p1', namespace: 'ws', name: 'proj', version: 'v1' },
    { added: [], updated: [], removed: [file] },
    testId,
  );
}

afterEach(() => {
  setUploadBackendFactory(null);
  resetUploadEngineDemand();
  api.setCsrfToken(null);
  api.setMaintenance(false);
});

describe('upload engine facade', () => {
  it('during maintenance refuses uploads with the read-only message before any request', async () => {
    const server = new FakePushServer();
    await server.seed({ 'old.txt': 'old' });
    useInProcessBackend(server);
    api.setMaintenance(true);
    const plan = removal({
      path: 'old.txt',
      size: 3,
      checksum: server.files.get('old.txt')!.checksum,
    });
    await expect(enqueueUpload(plan, new Map())).rejects.toMatchObject({
      isMaintenance: true,
      message: MAINTENANCE_MESSAGE,
    });
    expect(server.log).toEqual([]);
  });

  it("the worker's engine sends no write during maintenance: the upload fails with the read-only message", async () => {
    const server = new FakePushServer();
    await server.seed({ 'old.txt': 'old' });
    server.maintenance = true;
    const backend = inProcessBackend(server);
    const outcomes: UploadOutcome[] = [];
    backend.setMaintenance(true);
    await backend.start(
      { list: () => undefined, settled: (o) => outcomes.push(o), refreshCsrf: async () => null },
      null,
    );
    await backend.enqueue(
      removal({ path: 'old.txt', size: 3, checksum: server.files.get('old.txt')!.checksum }),
      [],
    );
    try {
      await waitFor(() => expect(outcomes).toHaveLength(1));
      expect(outcomes[0]).toMatchObject({ kind: 'failed', error: MAINTENANCE_MESSAGE });
      expect(server.log.filter((request) => request.method !== 'GET')).toEqual([]);
    } finally {
      // The in-process engine's guard outlives the test: the next tests write.
      backend.setMaintenance(false);
    }
  });

  it('lists uploads for React and reports each outcome once', async () => {
    const server = new FakePushServer();
    await server.seed({ 'old.txt': 'old', 'keep.txt': 'keep' });
    const { db } = useInProcessBackend(server);
    // The engine sends the page's current CSRF token.
    api.setCsrfToken('token-7');
    server.csrfToken = 'token-7';
    const outcomes: UploadOutcome[] = [];
    const stop = onUploadSettled((outcome) => outcomes.push(outcome));
    startUploadEngine();
    const { result } = renderHook(() => useUploads());
    expect(result.current).toEqual([]);

    let id = '';
    await act(async () => {
      id = await enqueueUpload(
        removal({ path: 'old.txt', size: 3, checksum: server.files.get('old.txt')!.checksum }),
        new Map(),
      );
    });
    await waitFor(() => expect(outcomes).toHaveLength(1));
    expect(outcomes[0]).toMatchObject({ kind: 'updated', id, projectPath: 'ws/proj' });
    expect([...server.files.keys()]).toEqual(['keep.txt']);
    await waitFor(() => expect(result.current).toEqual([]));

    // A refused plan stays listed as failed until dismissed.
    await act(async () => {
      id = await enqueueUpload(removal({ path: 'keep.txt', size: 4, checksum: 'x' }), new Map());
    });
    await waitFor(() =>
      expect(result.current).toMatchObject([{ id, phase: 'failed', error: 'Version mismatch' }]),
    );
    // The list shows the failure before the queue has stored it and reported the outcome.
    await waitFor(() =>
      expect(outcomes[1]).toMatchObject({ kind: 'failed', error: 'Version mismatch' }),
    );
    expect(outcomes).toHaveLength(2);
    await act(() => dismissUpload(id));
    await waitFor(() => expect(result.current).toEqual([]));
    expect(await db.uploads.count()).toBe(0);
    stop();
    await db.delete();
  });

  it('asks for the upload center when used, and keeps outcomes nobody heard for the first listener', async () => {
    const server = new FakePushServer();
    await server.seed({ 'old.txt': 'old', 'keep.txt': 'keep' });
    const { db, delivered } = useInProcessBackend(server);
    api.setCsrfToken('token-8');
    server.csrfToken = 'token-8';
    const wanted = renderHook(() => useUploadEngineWanted());
    expect(wanted.result.current).toBe(false);
    let id = '';
    await act(async () => {
      id = await enqueueUpload(
        removal({ path: 'old.txt', size: 3, checksum: server.files.get('old.txt')!.checksum }),
        new Map(),
      );
    });
    expect(wanted.result.current).toBe(true);
    // Nobody listens yet (the upload center is still loading) when the push finishes. (The
    // server has the new version before the queue has forgotten the upload and reported it.)
    await waitFor(() => expect(delivered).toHaveLength(1));
    expect([...server.files.keys()]).toEqual(['keep.txt']);
    const { result } = renderHook(() => useUploads());
    await waitFor(() => expect(result.current).toEqual([]));
    const first: UploadOutcome[] = [];
    const second: UploadOutcome[] = [];
    const stopFirst = onUploadSettled((outcome) => first.push(outcome));
    const stopSecond = onUploadSettled((outcome) => second.push(outcome));
    expect(first).toMatchObject([{ kind: 'updated', id, projectPath: 'ws/proj' }]);
    expect(second).toEqual([]);
    stopFirst();
    stopSecond();
    await db.delete();
  });
});
