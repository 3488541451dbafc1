// Every query that keeps an offline copy (withOfflineCopy) must run while offline: TanStack
// Query pauses a query with the default networkMode ('online') when the browser is offline, so
// its query function, which reads the saved copy when the server cannot be reached, never ran
// and the page said it was loading for good (the changeset page did, issue 37's loaded run).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('queries with an offline copy', () => {
  const users = sources('src/features').filter((file) =>
    readFileSync(file, 'utf8').includes('withOfflineCopy('),
  );

  it('are found', () => {
    expect(users.length).toBeGreaterThan(5);
  });

  it.each(users)('%s runs its queries offline too', (file) => {
    const text = readFileSync(file, 'utf8');
    const queries = text.match(/queryOptions\(\{/g)?.length ?? 0;
    const always = text.match(/networkMode: 'always'/g)?.length ?? 0;
    // Each file's query options, as many as it declares, run offline.
    expect(always).toBeGreaterThanOrEqual(Math.max(1, queries));
  });
});
