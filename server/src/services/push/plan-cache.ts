/**
 * Plans of running v1 uploads, read once per process: a plan never changes during its
 * upload, and a push of 50,000 files has a plan of about 10 MB, too much to read and parse
 * again for each of its chunks. With it, an index from chunk id to its file and place.
 * Any instance builds its own copy from the database; a few recent plans are kept.
 */
import type { Executor } from '../../db/database';
import { loadUploadPlan } from '../../db/queries/uploads';
import { stagedFiles, type PlanFile, type UploadPlan } from './plan';

/** Plans kept at most (the most recently used). */
const KEPT = 8;

export interface CachedPlan {
  plan: UploadPlan;
  /** Added and updated files in plan order (a staged file's index is its position). */
  files: PlanFile[];
  /** Chunk id → its file's index and its index in that file. */
  chunks: Map<string, { fileIndex: number; chunkIndex: number }>;
}

const plans = new Map<string, CachedPlan>();

/** The plan of upload `id` (null when the upload is gone). */
export async function uploadPlan(db: Executor, id: string): Promise<CachedPlan | null> {
  const kept = plans.get(id);
  if (kept) {
    plans.delete(id);
    plans.set(id, kept);
    return kept;
  }
  const plan = (await loadUploadPlan(db, id)) as UploadPlan | null;
  if (!plan) return null;
  const files = stagedFiles(plan);
  const chunks = new Map<string, { fileIndex: number; chunkIndex: number }>();
  files.forEach((file, fileIndex) =>
    file.chunks.forEach((chunk, chunkIndex) => chunks.set(chunk, { fileIndex, chunkIndex })),
  );
  const cached = { plan, files, chunks };
  plans.set(id, cached);
  while (plans.size > KEPT) plans.delete(plans.keys().next().value!);
  return cached;
}

/** Forgets the plan of an upload that ended. */
export function forgetPlan(id: string): void {
  plans.delete(id);
}
