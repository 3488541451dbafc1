/**
 * Every query that keeps an offline copy (withOfflineCopy) runs while offline: TanStack Query
 * pauses a query with the default networkMode ('online') when the browser is offline, so its
 * query function, which reads the saved copy when the server cannot be reached, never ran and
 * the page said it was loading for good (the changeset page did, issue 37's loaded run).
 */
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './source-files';

/** The features' source files (not their tests) that keep an offline copy, with their text. */
const users = sourceFiles('src/features', /(?<!\.test)\.tsx?$/).filter(([, text]) =>
  text.includes('withOfflineCopy('),
);

describe('queries with an offline copy', () => {
  it('are found', () => {
    expect(users.length).toBeGreaterThan(5);
  });

  it.each(users)('%s runs its queries offline too', (_file, text) => {
    const queries = text.match(/queryOptions\(\{/g)?.length ?? 0;
    const always = text.match(/networkMode: 'always'/g)?.length ?? 0;
    // Each file's query options, as many as it declares, run offline.
    expect(always).toBeGreaterThanOrEqual(Math.max(1, queries));
  });
});
