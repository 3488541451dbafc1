/**
 * The one plan of an upload, from 'Update Changes' to the wire and through every resume: the
 * project it goes to, its push id, and the push request's body exactly as it is sent (the
 * contract's `PushStartBody`: base version and changes, each uploaded file with its chunk
 * ids). The page builds it complete; the engine stores it as it is and sends `body` as it is,
 * on the first attempt and on every new push of the same plan after a reload or a lost
 * transaction.
 */
import type { PushChanges, PushFile, PushStartBody } from '@contract/push';
import type { PushPlan } from '@/db/uploadQueue';
import { newChunkIds } from './chunks';

export type { PushChanges, PushFile, PushStartBody };
/** The plan is stored as it is, so its shape is the database's (src/db/uploadQueue.ts). */
export type { PushPlan };

/** The project a plan goes to, as the page knows it. */
export interface PlanTarget {
  id: string;
  namespace: string;
  name: string;
  /** The version the changes are made against ('v0' for an empty project). */
  version: string;
}

/**
 * A complete plan: every added or updated file gets fresh chunk ids (one per chunk), the plan
 * a push id. `randomId` makes UUIDs (crypto.randomUUID in the browser).
 */
export function createPushPlan(
  target: PlanTarget,
  changes: PushChanges,
  randomId: () => string,
): PushPlan {
  const withChunks = (file: PushFile): PushFile => ({
    ...file,
    chunks: newChunkIds(file.size, randomId),
  });
  return {
    pushId: randomId(),
    projectId: target.id,
    namespace: target.namespace,
    name: target.name,
    body: {
      version: target.version,
      changes: {
        added: changes.added.map(withChunks),
        updated: changes.updated.map(withChunks),
        removed: changes.removed,
      },
    },
  };
}

/** The files whose bytes the plan sends (added and updated). */
export function uploadedFiles(plan: PushPlan): PushFile[] {
  return [...plan.body.changes.added, ...plan.body.changes.updated];
}

/** How many files the plan adds, updates and removes. */
export function changeCounts(plan: PushPlan): { added: number; updated: number; removed: number } {
  const { added, updated, removed } = plan.body.changes;
  return { added: added.length, updated: updated.length, removed: removed.length };
}

/** 'namespace/name' */
export function projectPathOf(plan: PushPlan): string {
  return `${plan.namespace}/${plan.name}`;
}
