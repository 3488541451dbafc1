/** What the user reads about a running upload (hashing, bytes, speed, time left, retries). */
import { formatFileSize } from '../../../lib/fileSize';
import { PHASE_TEXTS, retryingIn, timeLeft } from './texts';
import type { UploadPhase, UploadProgress } from './types';

/** Seconds as '45 s', '3 min', '1 h 5 min'. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
}

/** Phases in which the upload still works (or waits to). */
export const ACTIVE_PHASES: ReadonlySet<UploadPhase> = new Set([
  'queued',
  'hashing',
  'uploading',
  'waiting-network',
  'retrying',
  'finishing',
]);

export function isActive(progress: Pick<UploadProgress, 'phase'>): boolean {
  return ACTIVE_PHASES.has(progress.phase);
}

/** Percentage of bytes sent (0 to 100). */
export function percentOf(
  progress: Pick<UploadProgress, 'loadedBytes' | 'totalBytes' | 'phase'>,
): number {
  if (progress.phase === 'finishing' || progress.phase === 'finished') return 100;
  if (progress.totalBytes <= 0) return 0;
  return Math.min(100, Math.floor((progress.loadedBytes / progress.totalBytes) * 100));
}

/** What an upload changes: '2 added · 1 updated · 1 removed · 12.0 MB'. */
export function describeChanges(progress: UploadProgress): string {
  const parts: string[] = [];
  const counts = progress.changes;
  if (counts) {
    if (counts.added > 0) parts.push(`${counts.added} added`);
    if (counts.updated > 0) parts.push(`${counts.updated} updated`);
    if (counts.removed > 0) parts.push(`${counts.removed} removed`);
  }
  parts.push(formatFileSize(progress.totalBytes));
  return parts.join(' · ');
}

/** One line describing the state of an upload. */
export function describeProgress(progress: UploadProgress): string {
  switch (progress.phase) {
    case 'uploading': {
      const parts = [
        `${PHASE_TEXTS.uploading} ${formatFileSize(progress.loadedBytes)} of ${formatFileSize(progress.totalBytes)}`,
      ];
      if (progress.bytesPerSecond) parts.push(`${formatFileSize(progress.bytesPerSecond)}/s`);
      if (progress.secondsLeft !== null) parts.push(timeLeft(formatDuration(progress.secondsLeft)));
      return parts.join(' · ');
    }
    case 'retrying':
      return progress.retryInSeconds !== null
        ? retryingIn(Math.max(0, Math.ceil(progress.retryInSeconds)))
        : PHASE_TEXTS.retrying;
    case 'failed':
      return progress.error ? `${PHASE_TEXTS.failed}: ${progress.error}` : PHASE_TEXTS.failed;
    default:
      return PHASE_TEXTS[progress.phase];
  }
}
