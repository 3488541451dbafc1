/**
 * Server test files that replace modules (vi.mock): each runs in a fresh worker of its own
 * (vitest.config.ts, project server-isolated), so the replacement reaches no other file
 * (tests/lint/isolated-mocks.test.ts checks the list).
 */
export const ISOLATED_SERVER_TESTS = [
  'tests/server/file-store-retry.test.ts',
  'tests/server/push-chunk-prefix.test.ts',
];
