/**
 * The checkpoint rule: which versions of a GeoPackage / SQLite file are kept whole (stored)
 * and which are left to their recipe (a diff applied to the version before), so that
 * rebuilding any version applies a bounded amount of diff bytes (decision record
 * 0121-checkpoints.md has the figures).
 *
 * Walking the file's versions from the oldest, the diffs since the last whole copy add up;
 * a version stays a diff while that sum, with its own diff, is at most CHECKPOINT_SHARE of
 * its own size and there are at most CHECKPOINT_DIFFS of them; the version whose diff
 * would pass either bound is kept whole (a checkpoint) and the sum starts again; likewise
 * the page patches' bytes (CHECKPOINT_PATCH_SHARE). So a rebuild copies one whole version
 * and writes at most CHECKPOINT_PATCH_SHARE × its size of patch bytes, or, without usable
 * patches, applies at most CHECKPOINT_SHARE × its size of diff bytes, in at most
 * CHECKPOINT_DIFFS diffs.
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
/**
 * Most diffs a rebuild applies (and page patches it reads). 16, not the 32 of 0121: a cold
 * rebuild through patches costs about a millisecond per step (reading, decompressing and
 * XOR'ing its patch), on top of one pass over the file; chains half as long keep an old
 * version's cold download near 2× the latest's, for about 0.02 more of the versions' sizes
 * stored (record 0148-patch-chain.md).
 */
export const CHECKPOINT_DIFFS = 16;
/**
 * Share of a version's size its rebuild may read in page patches (page-patch.ts). A rebuild
 * goes through the patches and falls back to the diffs, so the chain is bounded for both:
 * the diffs as before (the fallback's cost), the patches here (the patch path's cost: their
 * bytes decompressed and folded, then one pass over the changed pages). Patches of the
 * 100,000-feature layer's 1 % edits are about their diffs' size (brotli), so the diffs'
 * bound is the one that places checkpoints there; this one stops patches much larger than
 * their diffs (changes spread over many pages) from making rebuilds slow.
 */
export const CHECKPOINT_PATCH_SHARE = 0.2;

export interface RuleLimits {
  share: number;
  diffs: number;
  /** Share of the size in page patch bytes (absent: not bounded). */
  patchShare?: number;
}

export const DEFAULT_LIMITS: RuleLimits = {
  share: CHECKPOINT_SHARE,
  diffs: CHECKPOINT_DIFFS,
  patchShare: CHECKPOINT_PATCH_SHARE,
};

/** One version of the file (a change that did not remove it), oldest first. */
export interface FileStep {
  key: string;
  size: number;
  stored: boolean;
  /** Has a recipe. */
  recipe: boolean;
  /** The size of its recipe's diff when the recipe applies to the previous step's blob. */
  linearDiff: number | null;
  /** The size of its page patch (0 or absent: none). */
  patch?: number;
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
  const within = (bytes: number, diffs: number, size: number, patched = 0) =>
    bytes <= limits.share * size &&
    diffs <= limits.diffs &&
    patched <= (limits.patchShare ?? Infinity) * size;

  let bytes = 0;
  let diffs = 0;
  let patched = 0;
  steps.forEach((step, index) => {
    const latest = index === steps.length - 1;
    const linear = step.recipe && step.linearDiff !== null && !step.shared;
    if (latest) {
      if (step.stored) vote(step.key, 'keep');
      else if (latestDue) vote(step.key, 'store');
      else if (
        linear &&
        !within(bytes + step.linearDiff!, diffs + 1, step.size, patched + (step.patch ?? 0))
      ) {
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
      patched = step.stored ? 0 : (step.patch ?? 0);
      return;
    }
    const nextBytes = bytes + step.linearDiff!;
    const nextPatched = patched + (step.patch ?? 0);
    if (within(nextBytes, diffs + 1, step.size, nextPatched)) {
      vote(step.key, 'unstore');
      bytes = nextBytes;
      diffs += 1;
      patched = nextPatched;
    } else {
      vote(step.key, 'store');
      bytes = 0;
      diffs = 0;
      patched = 0;
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
