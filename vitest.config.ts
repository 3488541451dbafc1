import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { aliases } from './aliases.ts';
import { ISOLATED_SERVER_TESTS } from './tests/isolated-server-tests.ts';
import { LongFilesFirst } from './tests/long-files-first.ts';

/**
 * Unit tests written as .ts that use the DOM (window, localStorage, navigator): they run in
 * jsdom with the component tests (.tsx). Every other .test.ts runs in Node.
 */
const DOM_TESTS = [
  'src/features/auth/api/init.test.ts',
  'src/features/map/preload.test.ts',
  'src/features/uploads/page/engine.test.ts',
  'src/lib/latch.test.ts',
  'src/lib/queryClient.test.ts',
  'src/offline/outboxCount.test.ts',
  'src/offline/owner.test.ts',
];

/**
 * Component tests that replace modules (vi.mock), globals (vi.stubGlobal) or the clock, and
 * those of whole routes (src/app: the app with its queries, router and offline state; one of
 * them failed after another file in a shared worker): each runs in a fresh worker of its own
 * (unit-dom-isolated). The other component tests share workers (unit-dom, isolate: false)
 * and so load jsdom, React, Mantine and the icons once per worker instead of once per file
 * (issue 37).
 */
const ISOLATED_DOM_TESTS = [
  'src/app/**/*.test.tsx',
  'src/features/capture/components/OutboxEdits.test.tsx',
  'src/features/projects/components/FileDetailPanel.test.tsx',
  'src/features/uploads/page/components/OutboxScreen.test.tsx',
  'src/features/uploads/page/components/UploadCenter.test.tsx',
  'src/features/uploads/page/components/UploadCenterHost.test.tsx',
  'src/features/uploads/page/components/UploadDropZone.test.tsx',
  'src/components/Paginator.test.tsx',
];

/**
 * Server integration tests (tests/server), the server's own unit tests and the lint rules' tests.
 * On PostgreSQL (TEST_DATABASE_URL: CI's second run of this tier) only the integration tests:
 * the others never open a database, and the PGlite run has run them.
 */
const SERVER_TESTS = [
  'tests/server/**/*.test.ts',
  ...(process.env.TEST_DATABASE_URL ? [] : ['server/src/**/*.test.ts', 'tests/lint/**/*.test.ts']),
];

/** Test files run side by side: both cores (vitest's default leaves one idle here). */
const WORKERS = 2;

/**
 * expect.poll waits on a condition: its bound is generous (the default 1 s failed under load),
 * and a condition that holds ends the wait at once.
 */
const POLL = { poll: { timeout: 60_000, interval: 50 } };

/** What both server projects share. */
const SERVER = {
  environment: 'node' as const,
  globalSetup: ['tests/server/global-setup.ts'],
  maxWorkers: WORKERS,
  // Bounds for conditions, not wall clocks: a test that passes is done at once, and a
  // busy machine (every core taken) makes the first sandbox process or GDAL slow.
  testTimeout: 120_000,
  expect: POLL,
  hookTimeout: 180_000,
};

export default defineConfig({
  test: {
    // The files that take minutes start first, so neither core waits on one alone at the end.
    sequence: { sequencer: LongFilesFirst },
    projects: [
      {
        // Unit tests that need no DOM run in Node: no jsdom to build for each file.
        resolve: { alias: aliases },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts'],
          exclude: DOM_TESTS,
          setupFiles: ['src/test/setup-node.ts'],
          maxWorkers: WORKERS,
          // A bound, not a wall clock: a test that passes is done at once.
          testTimeout: 180_000,
          expect: POLL,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: aliases },
        test: {
          name: 'unit-dom',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          exclude: ISOLATED_DOM_TESTS,
          // Files share a worker: setup-shared-worker.ts gives each fresh modules and storage.
          isolate: false,
          setupFiles: ['src/test/setup-shared-worker.ts', 'src/test/setup.ts'],
          maxWorkers: WORKERS,
          // A condition's bound, not a wall clock: rendering a whole route in jsdom takes
          // seconds on a busy 2-core machine (over a minute with every core taken several
          // times over), and a test that passes is done at once.
          testTimeout: 180_000,
          expect: POLL,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: aliases },
        test: {
          name: 'unit-dom-isolated',
          environment: 'jsdom',
          include: [...ISOLATED_DOM_TESTS, ...DOM_TESTS],
          setupFiles: ['src/test/setup.ts'],
          maxWorkers: WORKERS,
          testTimeout: 180_000,
          expect: POLL,
        },
      },
      {
        resolve: { alias: aliases },
        test: {
          ...SERVER,
          name: 'server',
          include: SERVER_TESTS,
          exclude: ISOLATED_SERVER_TESTS,
          // Files share a worker: the server's modules, its packages (Fastify, Drizzle, PGlite,
          // the AWS SDK) and its warm sandbox processes are loaded once per worker, not once
          // per file. Each file still builds its own app on its own database; the server keeps
          // its per-app state by app (WeakMaps keyed by the context), not per process.
          isolate: false,
        },
      },
      {
        resolve: { alias: aliases },
        test: { ...SERVER, name: 'server-isolated', include: ISOLATED_SERVER_TESTS },
      },
    ],
  },
});
