/**
 * What one piece of work on a user's file may spend (lib/sandbox): wall-clock time and the
 * memory of the process it runs in. Interactive work (the map, the attribute table, compare)
 * answers a person waiting; background work (applying a pushed diff, computing a changeset,
 * rebuilding a version) may take longer. The limits come from the configuration
 * (FILE_WORK_SECONDS, FILE_WORK_BACKGROUND_SECONDS, FILE_WORK_MEMORY_MB, FILE_WORK_NICE).
 */
import type { Config } from '../../config';
import { HttpProblem } from '../../errors';

export interface WorkBudget {
  /** Most wall-clock milliseconds the work may run once it has a process. */
  timeMs: number;
  /** Most resident memory (bytes) of the process running it. */
  memoryBytes: number;
  /** The nice value of a process started for it (default CHILD_NICE in runner.ts). */
  nice?: number;
}

export type WorkLane = 'interactive' | 'background';

/** The budget of a lane under this configuration. */
export function workBudget(config: Pick<Config, 'fileWork'>, lane: WorkLane): WorkBudget {
  const { seconds, backgroundSeconds, memoryBytes, nice } = config.fileWork;
  return {
    timeMs: (lane === 'interactive' ? seconds : backgroundSeconds) * 1000,
    memoryBytes,
    nice,
  };
}

/** Why work was stopped. */
export type OverBudget = 'time' | 'memory' | 'crash';

/** The default answer to work stopped over its budget. */
export const FILE_TOO_COMPLEX = 'This file is too large or too complex to process';

/**
 * Work on a user's file that ran out of its budget (or took its process down): a 422, since
 * the file, not the server, is the reason. Callers give a text for their case.
 */
export class WorkTooHeavyError extends HttpProblem {
  /** What the process wrote to its standard error before it died (a crash), for the log. */
  output?: string;
  constructor(
    readonly reason: OverBudget,
    detail: string = FILE_TOO_COMPLEX,
  ) {
    super(422, detail);
    this.name = 'WorkTooHeavyError';
  }
}
