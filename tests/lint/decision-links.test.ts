/**
 * Decision records (and docs/running-system.md) tell the truth about files: every repository
 * path a record names in code marks (`server/src/lib/paths.ts`, or a shorter tail such as
 * `services/map/reader.ts`) is a file that exists, and every relative link opens a file. A record that names a file since
 * moved or removed says so without code marks (see docs/decisions/README.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const decisions = path.join(root, 'docs/decisions');

/** Names in code marks that look like paths but are not this repository's files (a package's
 * files, '@scope/name/…', are never checked). */
const NOT_OURS = new Set([
  'styles/X.css', // a placeholder for one of @mantine/core's per-component style sheets
  'assets/[hash].js', // build output
  'assets/AccessRequestsTable-D2mlRLri.js', // build output
  'sync/models.py', // the reference server's sources
  'storages/disk.py',
]);

const PATH = /^[\w.-]+(\/[\w.@$[\]-]+)+\.(ts|tsx|js|mjs|cjs|md|json|sql|ya?ml|css|html|sh|py)$/;

/** Every file of the repository, relative to its root, outside dependencies and build output. */
function repositoryFiles(): string[] {
  const skip = /(^|\/)(node_modules|\.git|dist|test-results|playwright-report|\.data)(\/|$)/;
  return (fs.readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => !skip.test(file));
}

/** Paths in code marks (a `:line` or `#anchor` after the name is left off). */
function codePaths(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((match) => match[1]!.replace(/[:#].*$/, ''))
    .filter((name) => PATH.test(name) && !NOT_OURS.has(name));
}

function relativeLinks(text: string): string[] {
  return [...text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

describe('decision records', () => {
  const files = repositoryFiles();
  // The map of the running system (docs/running-system.md) is held to the same rule.
  const records = [
    ...fs.readdirSync(decisions).filter((name) => name.endsWith('.md')),
    '../running-system.md',
  ];

  it('are there to check', () => {
    expect(records.length).toBeGreaterThan(100);
  });

  it('name in code marks only files that exist', () => {
    const missing = records.flatMap((record) => {
      const text = fs.readFileSync(path.join(decisions, record), 'utf8');
      return codePaths(text)
        .filter((name) => !files.some((file) => file === name || file.endsWith(`/${name}`)))
        .map((name) => `${record}: ${name}`);
    });
    expect(missing).toEqual([]);
  });

  it('link only to files that exist', () => {
    const broken = records.flatMap((record) => {
      const text = fs.readFileSync(path.join(decisions, record), 'utf8');
      return relativeLinks(text)
        .filter((target) => !fs.existsSync(path.resolve(decisions, path.dirname(record), target)))
        .map((target) => `${record}: ${target}`);
    });
    expect(broken).toEqual([]);
  });

  it('would catch a path that does not exist', () => {
    expect(codePaths('See `server/src/lib/no-such-file.ts` and `src/lib/permissions.ts`.')).toEqual(
      ['server/src/lib/no-such-file.ts', 'src/lib/permissions.ts'],
    );
    expect(files).toContain('src/lib/permissions.ts');
    expect(files).not.toContain('server/src/lib/no-such-file.ts');
  });
});
