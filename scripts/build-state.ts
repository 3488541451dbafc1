// Decides whether the built PWA in dist/ matches the sources: a content hash of every input of
// `vite build` is kept in dist/.build-hash after a successful build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'scripts/compress-assets.ts',
  'tsconfig.json',
  'package-lock.json',
];
// Not inputs of the build: the generated route tree and the unit tests' helpers (src/test).
const SKIP = new Set(['routeTree.gen.ts', join('src', 'test')]);

function* files(root: string, path: string): Generator<string> {
  if (!existsSync(path)) return;
  if (statSync(path).isFile()) {
    yield relative(root, path);
    return;
  }
  for (const entry of readdirSync(path).sort()) {
    const rel = relative(root, join(path, entry));
    if (
      SKIP.has(entry) ||
      SKIP.has(rel) ||
      entry.endsWith('.test.ts') ||
      entry.endsWith('.test.tsx')
    )
      continue;
    yield* files(root, join(path, entry));
  }
}

export function sourceHash(root: string): string {
  const hash = createHash('sha256');
  for (const input of INPUTS) {
    for (const file of files(root, join(root, input))) {
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(join(root, file)))
        .update('\0');
    }
  }
  return hash.digest('hex');
}

const stampPath = (root: string) => join(root, 'dist', '.build-hash');

export function isBuildFresh(root: string): boolean {
  const stamp = stampPath(root);
  if (!existsSync(join(root, 'dist', 'index.html')) || !existsSync(stamp)) return false;
  return readFileSync(stamp, 'utf8').trim() === sourceHash(root);
}

export function markBuilt(root: string): void {
  writeFileSync(stampPath(root), sourceHash(root) + '\n');
}

/**
 * Builds the PWA when dist/ is missing or older than the sources (no time limit: a build on a
 * busy machine takes minutes); false when the build failed.
 */
export function buildIfStale(root: string): boolean {
  if (isBuildFresh(root)) return true;
  console.log('Building the web app (dist/ is missing or out of date)…');
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const build = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The web app build failed; see the messages above.');
    return false;
  }
  markBuilt(root);
  return true;
}
