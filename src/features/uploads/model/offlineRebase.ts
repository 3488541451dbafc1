/**
 * Rebasing an upload queued offline (issue 18), as the desktop plugin does: the plan was made
 * against the version saved on this device; when the project moved on meanwhile, each file is
 * compared between that base and the server's latest version.
 *
 * - A file the server did not change since the base goes as planned.
 * - A file changed on both sides keeps the server's content; the local one is uploaded beside
 *   it as a conflicted copy (the desktop client's `conflicted_copy_file_name`).
 * - A file the server removed is uploaded again; one the server already holds as it is here
 *   is left out.
 * - A deletion of a file the server changed is dropped (its new content stays), and said so.
 */
import { versionNumber } from '@contract/protocol';
import type { PushFile } from '@contract/push';
import type { FileOutcome, OfflineBase } from '@/db/uploadQueue';
import type { PushPlan } from './plan';

export type { FileOutcome };

/** The part of a file of the latest version a rebase compares. */
export interface LatestFile {
  path: string;
  size: number;
  checksum?: string | null;
}

/** Python's `Path(name).suffixes`, joined: '.tar.gz' for 'a.tar.gz', '' for '.profile'. */
function suffixes(name: string): string {
  if (name.endsWith('.')) return '';
  const parts = name.replace(/^\.+/, '').split('.');
  return parts.length > 1 ? `.${parts.slice(1).join('.')}` : '';
}

/** Python's `os.path.splitext(path)[1]` on a file name. */
function lastExtension(name: string): string {
  const stripped = name.replace(/^\.+/, '');
  const dot = stripped.lastIndexOf('.');
  return dot > 0 ? stripped.slice(dot) : '';
}

/** A QGIS project file (.qgs, .qgz): its copy gets '~' after the extension. */
export function isQgisFile(path: string): boolean {
  return ['.qgs', '.qgz'].includes(lastExtension(path.split('/').pop() ?? '').toLowerCase());
}

/**
 * `<name> (conflicted copy, <username> v<version>)<extensions>` beside the file, as the
 * desktop client names it (`conflicted_copy_file_name`: every suffix stays at the end, and a
 * QGIS project file gets '~' after it so a project never holds two QGIS projects).
 */
export function conflictedCopyName(path: string, username: string, version: number): string {
  const slash = path.lastIndexOf('/');
  const head = slash >= 0 ? path.slice(0, slash + 1) : '';
  const tail = path.slice(slash + 1);
  let ext = suffixes(tail);
  // `tail.replace(ext, "")` in the client: every occurrence goes.
  const name = ext ? tail.split(ext).join('') : tail;
  if (isQgisFile(path)) ext += '~';
  return `${head}${name} (conflicted copy, ${username} v${version})${ext}`;
}

export interface RebasedPlan {
  plan: PushPlan;
  /** What happens to each file of the original plan. */
  outcome: FileOutcome[];
  /** Uploaded files that go under a new path (conflicted copies): [planned path, new path]. */
  moved: [string, string][];
}

/** The plan carried over onto the latest version (unchanged when the project did not move). */
export function rebaseOfflinePlan(
  plan: PushPlan,
  base: OfflineBase,
  latest: { version: string; files: readonly LatestFile[] },
): RebasedPlan {
  const { changes } = plan.body;
  const baseByPath = new Map(base.baseFiles.map((f) => [f.path, f]));
  const latestByPath = new Map(latest.files.map((f) => [f.path, f]));
  const changedOnServer = (path: string) =>
    (baseByPath.get(path)?.checksum ?? null) !== (latestByPath.get(path)?.checksum ?? null);
  const sameVersion = versionNumber(latest.version) === versionNumber(plan.body.version);
  // A plan queued on top of others (issue 31) is based on the files as they would be after
  // them: at the same version they differ when one of those did not land.
  const touched = [...changes.added, ...changes.updated, ...changes.removed];
  if (sameVersion && !touched.some((f) => changedOnServer(f.path))) {
    return {
      plan,
      moved: [],
      outcome: [
        ...[...changes.added, ...changes.updated].map((f) => ({
          path: f.path,
          kind: 'sent' as const,
        })),
        ...changes.removed.map((f) => ({ path: f.path, kind: 'removed' as const })),
      ],
    };
  }
  const next = { added: [] as PushFile[], updated: [] as PushFile[], removed: [] as PushFile[] };
  const outcome: FileOutcome[] = [];
  const moved: [string, string][] = [];
  const place = (file: PushFile) =>
    (latestByPath.has(file.path) ? next.updated : next.added).push(file);

  for (const file of [...changes.added, ...changes.updated]) {
    const now = latestByPath.get(file.path);
    if (!changedOnServer(file.path)) {
      place(file);
      outcome.push({ path: file.path, kind: 'sent' });
    } else if (now && now.checksum === file.checksum) {
      outcome.push({ path: file.path, kind: 'already-there' });
    } else if (!now) {
      next.added.push(file);
      outcome.push({ path: file.path, kind: baseByPath.has(file.path) ? 'added-again' : 'sent' });
    } else {
      const copy = conflictedCopyName(file.path, base.username, versionNumber(latest.version));
      place({ ...file, path: copy });
      moved.push([file.path, copy]);
      outcome.push({ path: file.path, kind: 'conflicted-copy', copy });
    }
  }
  for (const file of changes.removed) {
    const now = latestByPath.get(file.path);
    if (!now) outcome.push({ path: file.path, kind: 'already-removed' });
    else if (changedOnServer(file.path)) outcome.push({ path: file.path, kind: 'removal-dropped' });
    else {
      next.removed.push({ path: now.path, size: now.size, checksum: now.checksum ?? '' });
      outcome.push({ path: file.path, kind: 'removed' });
    }
  }
  return {
    plan: { ...plan, body: { version: latest.version, changes: next } },
    outcome,
    moved,
  };
}

/**
 * The files of `latest` a rebased plan touches: the base of a later rebase, should the project
 * move on again before the plan landed (stored as `OfflineBase.baseFiles`, which always lists
 * files of `plan.body.version`).
 */
export function baseFilesOf(
  plan: PushPlan,
  latest: { files: readonly LatestFile[] },
): OfflineBase['baseFiles'] {
  const { added, updated, removed } = plan.body.changes;
  const touched = new Set([...added, ...updated, ...removed].map((f) => f.path));
  return latest.files
    .filter((f) => touched.has(f.path))
    .map((f) => ({ path: f.path, size: f.size, checksum: f.checksum ?? '' }));
}

/** Outcomes that leave the file's planned change in the plan (a later rebase may alter it). */
const IN_PLAN: ReadonlySet<FileOutcome['kind']> = new Set([
  'sent',
  'removed',
  'conflicted-copy',
  'added-again',
]);

/**
 * What happened to each file of the original plan after a second rebase: `first` is per
 * original path, `again` per path of the plan the first rebase made (a conflicted copy under
 * its copy's name). A file the second rebase sent as planned keeps its first outcome;
 * otherwise the second one counts, told of the original path.
 */
export function composeOutcomes(first: FileOutcome[], again: FileOutcome[]): FileOutcome[] {
  const byPath = new Map(again.map((o) => [o.path, o]));
  return first.map((o) => {
    const next = IN_PLAN.has(o.kind) ? byPath.get(o.copy ?? o.path) : undefined;
    if (!next || next.kind === 'sent' || next.kind === 'removed') return o;
    if (next.kind === 'added-again') return o.kind === 'sent' ? { ...o, kind: next.kind } : o;
    return next.copy
      ? { path: o.path, kind: next.kind, copy: next.copy }
      : { path: o.path, kind: next.kind };
  });
}

/** What the user reads about one file once the upload landed. */
export function describeFileOutcome(outcome: FileOutcome): string {
  switch (outcome.kind) {
    case 'sent':
      return `${outcome.path}: uploaded`;
    case 'removed':
      return `${outcome.path}: deleted`;
    case 'conflicted-copy':
      return `${outcome.path}: changed on the server too; the server's version stays and yours was uploaded as ${outcome.copy}`;
    case 'already-there':
      return `${outcome.path}: the server already had the same content`;
    case 'removal-dropped':
      return `${outcome.path}: not deleted, because it changed on the server meanwhile`;
    case 'already-removed':
      return `${outcome.path}: already deleted on the server`;
    case 'added-again':
      return `${outcome.path}: deleted on the server meanwhile; yours was uploaded again`;
  }
}
