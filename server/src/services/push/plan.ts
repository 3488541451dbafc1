/**
 * The push plan: what a push will change, as the server holds it (stored with the upload
 * row while chunks arrive). Added and updated files keep what the client declares about the
 * bytes it will send (size, SHA-1, chunk ids, diff): finish checks every one against the
 * received bytes. Removed files and the files an update replaces are described by the
 * server's own records only, never by the client's entries.
 */
import type { FileRow } from '../../db/queries/files';
import { isBlacklisted } from '../../lib/push-rules';
import type { PushChanges as WireChanges, PushFile } from '../../schemas/push';
import type { PushDialect } from './dialect';
import { checkDiffBase, type PushDiff } from './diffs';
import { checkChanges, inDialect } from './rules';

export type PushFileInput = PushFile;
export type PushChanges = WireChanges;

/** An added or updated file of the plan. */
export interface PlanFile {
  path: string;
  size: number;
  checksum: string;
  mtime: string | null;
  chunks: string[];
  /** A GeoPackage diff update: the chunks hold this diff (diffs.ts). */
  diff?: PushDiff | null;
}

/** A removed file, as the server holds it. */
export interface RemovedFile {
  path: string;
  size: number;
  checksum: string;
}

export interface UploadPlan {
  added: PlanFile[];
  updated: PlanFile[];
  removed: RemovedFile[];
}

/** The project's current files by path. */
export type CurrentFiles = Map<string, Pick<FileRow, 'path' | 'size' | 'checksum'>>;

/** Bytes and SHA-1 of what the chunks of a plan file carry (the diff, for diff updates). */
export const stagedSize = (file: PlanFile) => file.diff?.size ?? file.size;
export const stagedChecksum = (file: PlanFile) => file.diff?.checksum ?? file.checksum;

/** Added and updated files in plan order (a staged file's index is its position here). */
export function stagedFiles(plan: UploadPlan): PlanFile[] {
  return [...plan.added, ...plan.updated];
}

/**
 * Checks the changes (rules.ts) against the project's current files and makes the plan:
 * blacklisted names dropped, removed files taken from `current`.
 */
export function planPush(
  changes: PushChanges,
  current: CurrentFiles,
  dialect: PushDialect,
): UploadPlan {
  const diffs = checkChanges(changes, dialect);
  const kept = (files: PushFileInput[]) => files.filter((f) => !isBlacklisted(f.path));
  const planFile = (file: PushFileInput): PlanFile => ({
    path: file.path,
    size: file.size,
    checksum: file.checksum.toLowerCase(),
    mtime: file.mtime ?? null,
    chunks: file.chunks ?? [],
    diff: diffs.get(file) ?? null,
  });
  const plan: UploadPlan = {
    added: kept(changes.added).map(planFile),
    updated: kept(changes.updated).map(planFile),
    removed: [],
  };
  for (const file of plan.added) {
    if (current.has(file.path)) throw dialect.addedExists(file.path);
  }
  // Stricter than the reference (commitVersion's rule): updated and removed paths must exist.
  for (const file of [...plan.updated, ...kept(changes.removed)]) {
    if (!current.has(file.path)) throw dialect.notInProject(file.path);
  }
  for (const file of plan.updated) {
    if (file.diff) inDialect(dialect, () => checkDiffBase(file, current.get(file.path)!.checksum));
  }
  plan.removed = kept(changes.removed).map((file) => {
    const held = current.get(file.path)!;
    return { path: held.path, size: held.size, checksum: held.checksum };
  });
  return plan;
}
