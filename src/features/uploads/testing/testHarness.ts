/**
 * Tests only: builds upload queues ("tabs") on a shared fake-indexeddb database, a fake push
 * server, a fake Web Locks manager and an in-memory BroadcastChannel.
 */
import { createTransport } from '@/api/transport';
import { openDatabase, type WaymarkDatabase } from '@/db/db';
import { createPushPlan, type PushPlan } from '../model/plan';
import type { UploadOutcome, UploadProgress } from '../model/types';
import type { FakePushServer } from './fakePushServer';
import { sha1 } from './fakePushServer';
import { PushHttp } from '../worker/pushHttp';
import { UploadQueue, type ChannelLike, type LocksLike } from '../worker/queue';

/** Web Locks with exclusive locks and `ifAvailable`, as the browser implements them. */
export class FakeLocks implements LocksLike {
  readonly held = new Set<string>();
  private readonly waiters = new Map<string, (() => void)[]>();
  /** Locks another (simulated) tab holds: every name starting with this prefix. */
  private foreign: { prefix: string; released: Promise<void> } | null = null;

  /** Simulates another tab holding every lock starting with `prefix`; returns its release. */
  holdElsewhere(prefix: string): () => void {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.foreign = { prefix, released };
    return () => {
      this.foreign = null;
      release();
    };
  }

  async request<T>(
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: unknown) => Promise<T> | T,
  ): Promise<T> {
    while (this.foreign && name.startsWith(this.foreign.prefix)) {
      if (options.ifAvailable) return callback(null);
      await this.foreign.released;
    }
    if (this.held.has(name)) {
      if (options.ifAvailable) return callback(null);
      await new Promise<void>((resolve) => {
        this.waiters.set(name, [...(this.waiters.get(name) ?? []), resolve]);
      });
    }
    this.held.add(name);
    try {
      return await callback({ name });
    } finally {
      this.held.delete(name);
      const next = this.waiters.get(name)?.shift();
      next?.();
    }
  }
}

/** BroadcastChannel between tabs of one test (a message reaches every other member). */
export class FakeChannelBus {
  private readonly members: { listeners: ((event: { data: unknown }) => void)[] }[] = [];

  join(): ChannelLike {
    const member = { listeners: [] as ((event: { data: unknown }) => void)[] };
    this.members.push(member);
    return {
      postMessage: (data) => {
        const copy = structuredClone(data);
        for (const other of this.members) {
          if (other === member) continue;
          for (const listener of other.listeners) queueMicrotask(() => listener({ data: copy }));
        }
      },
      addEventListener: (_type, listener) => {
        member.listeners.push(listener);
      },
    };
  }
}

export interface Tab {
  queue: UploadQueue;
  lists: UploadProgress[][];
  outcomes: UploadOutcome[];
  phases: string[];
  sleeps: number[];
  networkWaits: number;
  /** Resolves with the next outcome. */
  next(): Promise<UploadOutcome>;
}

let dbCounter = 0;

export function newDatabase(): WaymarkDatabase {
  dbCounter += 1;
  return openDatabase(`uploads-test-${dbCounter}-${Math.random()}`);
}

/** The SHA-1 of a Blob, as the upload worker's hashing module answers it. */
export const blobSha1 = async (blob: Blob): Promise<string> =>
  sha1(new Uint8Array(await blob.arrayBuffer()));

let idCounter = 0;
export const testId = () => `id-${++idCounter}`;

export function openTab(
  server: FakePushServer,
  db: WaymarkDatabase,
  options: {
    locks?: FakeLocks | null;
    channel?: ChannelLike | null;
    concurrency?: number;
    /** The engine's clock (default Date.now). */
    now?: () => number;
  } = {},
): Tab {
  const waiting: ((outcome: UploadOutcome) => void)[] = [];
  const tab: Tab = {
    queue: undefined as unknown as UploadQueue,
    lists: [],
    outcomes: [],
    phases: [],
    sleeps: [],
    networkWaits: 0,
    next: () =>
      new Promise((resolve) => {
        waiting.push(resolve);
      }),
  };
  const transport = createTransport({ fetch: server.fetch });
  transport.setCsrfToken(server.csrfToken);
  const http = new PushHttp(transport);
  tab.queue = new UploadQueue({
    db,
    http,
    sleep: async (ms, signal) => {
      signal.throwIfAborted();
      tab.sleeps.push(ms);
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    waitForNetwork: async (_attempt, signal) => {
      signal.throwIfAborted();
      tab.networkWaits += 1;
      await new Promise((resolve) => setTimeout(resolve, 0));
    },
    random: () => 0,
    now: options.now ?? (() => Date.now()),
    randomId: testId,
    sha1: blobSha1,
    concurrency: options.concurrency,
    locks: options.locks === undefined ? new FakeLocks() : options.locks,
    channel: options.channel ?? null,
    progressIntervalMs: 0,
    onList: (list) => {
      tab.lists.push(list);
      for (const item of list) {
        if (tab.phases[tab.phases.length - 1] !== item.phase) tab.phases.push(item.phase);
      }
    },
    onSettled: (outcome) => {
      tab.outcomes.push(outcome);
      waiting.shift()?.(outcome);
    },
  });
  return tab;
}

/** Deterministic bytes. */
export function bytes(length: number, seed = 1): Uint8Array<ArrayBuffer> {
  const data = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    data[i] = x >>> 24;
  }
  return data;
}

/** A plan adding (or updating, when the server has the path) `files`, with their blobs. */
export async function planFor(
  server: FakePushServer,
  files: Record<string, Uint8Array<ArrayBuffer>>,
  removed: string[] = [],
): Promise<{ plan: PushPlan; blobs: Map<string, Blob> }> {
  const entries = await Promise.all(
    Object.entries(files).map(async ([path, data]) => ({
      path,
      size: data.length,
      checksum: await sha1(data),
      mtime: '2024-05-04T12:00:00Z',
    })),
  );
  const plan = createPushPlan(
    { id: 'p1', namespace: server.namespace, name: server.name, version: `v${server.version}` },
    {
      added: entries.filter((e) => !server.files.has(e.path)),
      updated: entries.filter((e) => server.files.has(e.path)),
      removed: removed.map((path) => {
        const file = server.files.get(path)!;
        return { path, size: file.size, checksum: file.checksum };
      }),
    },
    testId,
  );
  return {
    plan,
    blobs: new Map(Object.entries(files).map(([path, data]) => [path, new Blob([data])])),
  };
}

/**
 * Waits until `check` holds (polling the event loop), failing after `ms` (a minute by default:
 * the bound is for a condition that never comes, not a timing; a busy machine is slow).
 */
export async function until(check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error('Condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
