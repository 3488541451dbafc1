/**
 * The web app imports values (not only types) from the wire contract (server/src/schemas/) only
 * where the module, and every contract module it imports, is plain constants and functions:
 * no TypeBox. A value imported from a module that builds schemas brings TypeBox and every
 * schema of that module into the app's chunks; the audit route's crumb once put the audit
 * screen, its contract and TypeBox in the entry of every page (sign-in 151 KB → 207 KB
 * gzipped, against issue 8's budget of 170).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, sourceFiles } from './source-files';

const CONTRACT = 'server/src/schemas';

/** `import …`/`export … from` statements naming a contract module, with what they bring. */
const STATEMENT =
  /\b(import|export)\s+(type\s+)?(\{[^}]*\}|\*\s+as\s+\w+|\w+)?\s*(?:,\s*\{[^}]*\})?\s*from\s+'@contract\/([\w-]+)'/g;

/** Whether the statement brings a value: not `import type`, and some name without `type`. */
function bringsValues(typeKeyword: string | undefined, names: string | undefined): boolean {
  if (typeKeyword) return false;
  if (!names?.startsWith('{')) return true;
  return names
    .slice(1, -1)
    .split(',')
    .map((name) => name.trim())
    .some((name) => name !== '' && !name.startsWith('type '));
}

/** Whether `module`, or a contract module it imports values from, imports values of TypeBox. */
function usesTypeBox(module: string, seen = new Set<string>()): boolean {
  if (seen.has(module)) return false;
  seen.add(module);
  const text = fs.readFileSync(path.join(REPO_ROOT, CONTRACT, `${module}.ts`), 'utf8');
  if (/\bimport\s+(?!type\b)[^;]*?from\s+'@sinclair\/typebox'/.test(text)) return true;
  for (const [, typeOnly, local] of text.matchAll(
    /\bimport\s+(type\s+)?[^;]*?from\s+'\.\/([\w.-]+)'/g,
  )) {
    if (!typeOnly && usesTypeBox(local!.replace(/\.ts$/, ''), seen)) return true;
  }
  return false;
}

const imports = sourceFiles('src', /\.tsx?$/)
  .filter(([file]) => !/\.test\.tsx?$/.test(file) && !file.startsWith('src/test/'))
  .flatMap(([file, text]) =>
    [...text.matchAll(STATEMENT)]
      .filter(([, , typeKeyword, names]) => bringsValues(typeKeyword, names))
      .map(([, , , , module]) => [file, module!] as const),
  );

describe("the web app's imports of values from the contract", () => {
  it('are found', () => {
    expect(imports.length).toBeGreaterThan(10);
  });

  it.each(imports)('%s imports values of @contract/%s, which uses no TypeBox', (_file, module) => {
    expect(usesTypeBox(module)).toBe(false);
  });

  it('tells a module that builds schemas', () => {
    expect(usesTypeBox('audit')).toBe(true);
    expect(usesTypeBox('audit-actions')).toBe(false);
    expect(bringsValues(undefined, '{ type A, B }')).toBe(true);
    expect(bringsValues(undefined, '{ type A, type B }')).toBe(false);
    expect(bringsValues('type ', '{ A }')).toBe(false);
  });
});
