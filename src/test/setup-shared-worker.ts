/**
 * First setup of the unit-dom project, whose test files share a worker, its jsdom and the
 * packages it has loaded (isolate: false, vitest.config.ts): each file starts as in a fresh
 * environment all the same. The project's own modules are evaluated again (vi.resetModules),
 * globals a previous file stubbed are restored, and what packages keep at module level is
 * reset: Web Storage, IndexedDB (a new fake factory, for Dexie too), Mantine's notification
 * store, TanStack Query's online and focus state.
 *
 * `fake-indexeddb/auto` (which setup.ts loads through setup-node.ts) is loaded here first: it
 * installs a global factory of its own the first time it is evaluated, once per worker. Loaded
 * after the fresh factory below, it replaced the global one for the worker's first file only,
 * while Dexie kept the fresh one, so that file's bare IndexedDB reads (db/bare.ts) and Dexie
 * saw two different databases (the dismissal tests of components.test.tsx failed whenever
 * that file came first).
 */
import 'fake-indexeddb/auto';
import { notifications } from '@mantine/notifications';
import { focusManager, onlineManager } from '@tanstack/react-query';
import Dexie from 'dexie';
import { IDBFactory } from 'fake-indexeddb';
import { vi } from 'vitest';

vi.resetModules();
vi.unstubAllGlobals();
vi.useRealTimers();
localStorage.clear();
sessionStorage.clear();
const indexedDB = new IDBFactory();
Object.defineProperty(globalThis, 'indexedDB', {
  value: indexedDB,
  configurable: true,
  writable: true,
});
Dexie.dependencies.indexedDB = indexedDB;
notifications.clean();
notifications.cleanQueue();
onlineManager.setOnline(true);
focusManager.setFocused(undefined);
