/**
 * Test files start longest first: vitest's own order (failed first, then the durations it
 * kept from the last run, else the largest file first) is kept for every file but the few
 * that take minutes, which start at once, in this order. Two workers share the files: a
 * file of many minutes started late runs on alone while the other core idles. Vitest's kept
 * durations do not place them reliably: on a fresh clone there are none, and in CI the run
 * before (the server tier on PostgreSQL) records file-store-200 as skipped, a few
 * milliseconds, so the next run would start it last.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files (from the repository's root) measured at minutes each, longest first. */
export const LONG_FILES = [
  'tests/server/file-store-200.test.ts',
  'tests/server/file-store-convert.test.ts',
];

export class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const index = LONG_FILES.indexOf(
        path.relative(this.ctx.config.root, spec.moduleId).split(path.sep).join('/'),
      );
      return index === -1 ? LONG_FILES.length : index;
    };
    return sorted
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map(({ spec }) => spec);
  }
}
