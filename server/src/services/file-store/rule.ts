/**
 * The checkpoint rule: which versions of a GeoPackage / SQLite file are kept whole (stored)
 * and which are left to their recipe (a diff applied to the version before), so that
 * rebuilding any version applies a bounded amount of diff bytes (decision record
 * 0121-checkpoints.md has the figures).
 *
 * Walking the file's versions from the oldest, the diffs since the last whole copy add up;
 * a version stays a diff while that sum, with its own diff, is at most CHECKPOINT_SHARE of
 * its own size and there are at most CHECKPOINT_DIFFS of them; the version whose diff
 * would pass either bound is kept whole (a checkpoint) and the sum starts again. So a
 * rebuild copies one whole version and applies at most CHECKPOINT_SHARE × its size of diff
 * bytes, in at most CHECKPOINT_DIFFS diffs.
 *
 * Always whole: a version without a recipe (the first version of a file, a whole-file push,
 * a push whose diff could not be made, e.g. a schema change), and the latest version, once
 * its copy is due (VERSION_COPY_DELAY after the push; at once when its own chain passes the
 * bounds). Left as they are: blobs shared with another file or project, and blobs whose
 * recipe starts from another version than the one before (a restore reuses an older
 * version's blob): their chains are decided where they were made.
 */

/** Share of a version's size its rebuild may apply in diff bytes. */
export const CHECKPOINT_SHARE = 0.1;
/** Most diffs a rebuild applies. */
export const CHECKPOINT_DIFFS = 32;

export interface RuleLimits {
  share: number;
  diffs: number;
}

export const DEFAULT_LIMITS: RuleLimits = { share: CHECKPOINT_SHARE, diffs: CHECKPOINT_DIFFS };

/** One version of the file (a change that did not remove it), oldest first. */
export interface FileStep {
  key: string;
  size: number;
  stored: boolean;
  /** Has a recipe. */
  recipe: boolean;
  /** The size of its recipe's diff when the recipe applies to the previous step's blob. */
  linearDiff: number | null;
  /** Referenced by another file's history, or another file's latest version. */
  shared: boolean;
  /** Diff bytes a rebuild applies now (unstored blobs with another recipe). */
  chainBytes?: number;
  /** Diffs a rebuild applies now (unstored blobs with another recipe). */
  chainDiffs?: number;
}

export interface Placement {
  /** Blobs to write whole (not stored now). */
  store: string[];
  /** Blobs whose whole copy may go (stored now). */
  unstore: string[];
}

type Vote = 'store' | 'unstore' | 'keep';

/**
 * Where the whole copies of a file go. `latestDue`: the latest version's copy is due
 * (else it stays a diff unless its chain passes the bounds).
 */
export function placeCopies(
  steps: FileStep[],
  latestDue: boolean,
  limits: RuleLimits = DEFAULT_LIMITS,
): Placement {
  const votes = new Map<string, Vote[]>();
  const vote = (key: string, v: Vote) => {
    const list = votes.get(key);
    if (list) list.push(v);
    else votes.set(key, [v]);
  };
  const within = (bytes: number, diffs: number, size: number) =>
    bytes <= limits.share * size && diffs <= limits.diffs;

  let bytes = 0;
  let diffs = 0;
  steps.forEach((step, index) => {
    const latest = index === steps.length - 1;
    const linear = step.recipe && step.linearDiff !== null && !step.shared;
    if (latest) {
      if (step.stored) vote(step.key, 'keep');
      else if (latestDue) vote(step.key, 'store');
      else if (linear && !within(bytes + step.linearDiff!, diffs + 1, step.size)) {
        vote(step.key, 'store');
      } else if (
        !linear &&
        !within(step.chainBytes ?? Infinity, step.chainDiffs ?? Infinity, step.size)
      ) {
        vote(step.key, 'store');
      } else vote(step.key, 'keep');
      return;
    }
    if (!linear) {
      vote(step.key, 'keep');
      bytes = step.stored ? 0 : (step.chainBytes ?? Infinity);
      diffs = step.stored ? 0 : (step.chainDiffs ?? Infinity);
      return;
    }
    const nextBytes = bytes + step.linearDiff!;
    if (within(nextBytes, diffs + 1, step.size)) {
      vote(step.key, 'unstore');
      bytes = nextBytes;
      diffs += 1;
    } else {
      vote(step.key, 'store');
      bytes = 0;
      diffs = 0;
    }
  });

  const placement: Placement = { store: [], unstore: [] };
  const stored = new Map(steps.map((s) => [s.key, s.stored]));
  for (const [key, list] of votes) {
    if (list.includes('store')) {
      if (!stored.get(key)) placement.store.push(key);
    } else if (list.every((v) => v === 'unstore')) {
      if (stored.get(key)) placement.unstore.push(key);
    }
  }
  return placement;
}
