/**
 * How an API words the push core's refusals. The core decides *whether* a push is refused;
 * the v1 and v2 adapters (v1.ts, v2.ts) only say *how* their API answers it.
 */
import type { HttpProblem } from '../../errors';

export interface PushDialect {
  /** A structural rule of the changes failed (v1: 400 with the text; v2: 422 UploadError). */
  invalid(text: string): HttpProblem;
  /** The client's base version is refused (null: accepted). */
  version(client: number | null, server: number, hasV0: boolean): HttpProblem | null;
  /** The project is locked by an administrator. */
  locked(): HttpProblem;
  /** Another push holds the project's push lock. */
  busy(): HttpProblem;
  /** An added file is already in the project. */
  addedExists(path: string): HttpProblem;
  /** An updated or removed file is not in the project. */
  notInProject(path: string): HttpProblem;
  /** The version could not be made: the project moved on to `latest` meanwhile. */
  versionMoved(client: number | null, latest: number): HttpProblem;
  /** The version could not be made: its changes do not apply (InvalidChangesError). */
  commitRefused(message: string): HttpProblem;
  /** Whether one chunk id may be listed by several files (v2: identical content sent once). */
  sharedChunks: boolean;
}
