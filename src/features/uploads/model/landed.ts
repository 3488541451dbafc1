/**
 * How a landed upload is told (issue 31): as the spec's success ('Upload finished: {path}',
 * 'Project updated') when it did what the user asked; as a warning, kept in the Outbox, when
 * a file did not go as asked (a conflicted copy, a deletion dropped, a file uploaded again
 * after it was deleted on the server) or nothing was left to send, so no version was made.
 */
import type { FileOutcome } from './offlineRebase';

/** Outcomes that leave the project otherwise than the user asked. */
const NOT_AS_ASKED: ReadonlySet<FileOutcome['kind']> = new Set([
  'conflicted-copy',
  'removal-dropped',
  'added-again',
]);

/** Outcomes whose change went to the server. */
const SENT: ReadonlySet<FileOutcome['kind']> = new Set([
  'sent',
  'removed',
  'conflicted-copy',
  'added-again',
]);

/** Whether the upload made a version: an upload queued offline may have had nothing left. */
export function versionMade(files: readonly FileOutcome[] | undefined): boolean {
  return files === undefined || files.length === 0 || files.some((f) => SENT.has(f.kind));
}

/** Whether the user must be told that the upload did not do all that was asked. */
export function needsAttention(files: readonly FileOutcome[] | undefined): boolean {
  return !versionMade(files) || (files ?? []).some((f) => NOT_AS_ASKED.has(f.kind));
}

/** The title of a landed upload that made no version (ours; the spec has none). */
export const noVersionMade = (projectPath: string) =>
  `No new version of ${projectPath}: nothing was left to send`;
