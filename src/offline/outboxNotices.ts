/**
 * Uploads that landed without doing all the user asked (issue 31): a deletion dropped because
 * the file changed on the server, a file uploaded as a conflicted copy or uploaded again after
 * it was deleted there, or nothing left to send, so no version was made. The toast says so
 * once; these stay readable in the Outbox until the user dismisses them. Kept in localStorage
 * (one small list, read by every tab; the 'storage' event tells the others), and deleted with
 * the signed-in user's data on sign-out (privateData.ts removes the key).
 */
import type { FileOutcome } from '@/db/uploadQueue';
import { OUTBOX_NOTICES_KEY, setOutboxNoticeCount } from './outboxCount';

export { OUTBOX_NOTICES_KEY };

export interface OutboxNotice {
  /** The upload's id. */
  id: string;
  /** 'namespace/name' */
  projectPath: string;
  /** When it landed (ms since epoch). */
  at: number;
  /** As the upload's outcome: a push with a transaction, or answered at once. */
  kind: 'finished' | 'updated';
  /** Whether the upload made a version (false: nothing was left to send). */
  versionMade: boolean;
  /** What happened to each file. */
  files: FileOutcome[];
}

const listeners = new Set<() => void>();
/** The list last read, by the text it was read from (a stable snapshot for React). */
let readFrom: string | null | undefined;
let notices: OutboxNotice[] = [];

function stored(): string | null {
  try {
    return localStorage.getItem(OUTBOX_NOTICES_KEY);
  } catch {
    return null;
  }
}

/** The notices, oldest first. */
export function outboxNotices(): OutboxNotice[] {
  const raw = stored();
  if (raw !== readFrom) {
    readFrom = raw;
    try {
      const parsed: unknown = JSON.parse(raw ?? '[]');
      notices = Array.isArray(parsed) ? (parsed as OutboxNotice[]) : [];
    } catch {
      notices = [];
    }
  }
  return notices;
}

function publish(next: OutboxNotice[]): void {
  try {
    if (next.length > 0) localStorage.setItem(OUTBOX_NOTICES_KEY, JSON.stringify(next));
    else localStorage.removeItem(OUTBOX_NOTICES_KEY);
  } catch {
    // Storage full or disabled: nothing is kept.
  }
  changed();
}

function changed(): void {
  setOutboxNoticeCount(outboxNotices().length);
  for (const listener of [...listeners]) listener();
}

/** Keeps a notice (once per upload). */
export function addOutboxNotice(notice: OutboxNotice): void {
  const current = outboxNotices().filter((n) => n.id !== notice.id);
  publish([...current, notice]);
}

/** The user read it: it goes. */
export function dismissOutboxNotice(id: string): void {
  publish(outboxNotices().filter((n) => n.id !== id));
}

export function subscribeOutboxNotices(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

if (typeof window !== 'undefined') {
  // Another tab added or dismissed one.
  window.addEventListener('storage', (event) => {
    if (event.key === OUTBOX_NOTICES_KEY || event.key === null) changed();
  });
}
