/**
 * The map's reads of users' files, run in the sandbox (lib/sandbox: child processes, within
 * a budget), never on the thread that answers requests: reader.ts does the reading there.
 * Work stopped over its budget answers 422 with a text saying the file or layer is too large
 * or too complex, and the verdict is kept for a while, so asking again answers at once.
 */
import type { AppContext } from '../../context';
import { sandboxModule, startSandbox, type WorkLane } from '../../lib/sandbox';
import type { MapReadRequest, MapReadResults } from './reader';
import type * as Reader from './reader';

export const FILE_TOO_COMPLEX = 'This file is too large or too complex to show on the map';
export const LAYER_TOO_COMPLEX = 'This layer is too large or too complex to show';

const runMapRead = sandboxModule<typeof Reader>(new URL('./reader.ts', import.meta.url)).fn(
  'runMapRead',
);

export interface ReadOptions {
  lane: WorkLane;
  /** Work over budget is remembered under this key (it starts with the file's SHA-1). */
  verdictKey: string;
  /** The 422's text when the work is stopped over its budget. */
  tooHeavy: string;
  /** Who asks (lib/sandbox: one caller never takes the last free process). */
  owner?: string;
}

/** Runs a read in the sandbox. */
export async function readMap<Request extends MapReadRequest>(
  ctx: AppContext,
  request: Request,
  options: ReadOptions,
): Promise<MapReadResults[Request['kind']]> {
  return (await runMapRead(ctx, options, request)) as MapReadResults[Request['kind']];
}

/** Starts a sandbox process ahead of the first read (a map asked for, a push to warm). */
export function startMapReader(ctx: AppContext): void {
  startSandbox(ctx, 'interactive');
}
