/**
 * The repository's source files a rule reads as text: every file under `dir` (relative to the
 * repository's root, searched recursively) whose name matches `name`, with its text, as
 * [path from the root with forward slashes, text].
 */
import fs from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export function sourceFiles(dir: string, name: RegExp): (readonly [string, string])[] {
  return (fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[])
    .map((file) => path.posix.join(dir, file.split(path.sep).join('/')))
    .filter((file) => name.test(file))
    .map((file) => [file, fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')] as const);
}
