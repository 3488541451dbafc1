/**
 * Uploads queued by the app before the one plan shape (plan.ts) kept the plan's files at the
 * top of the plan and their chunk ids beside it (`record.chunks`). Such a record, still in a
 * browser's IndexedDB after an update, is rewritten once to the current shape when the queue
 * loads, so it resumes with the same chunk ids (and transaction) as before.
 */
import type { UploadRecord } from '@/db/db';
import type { PushFile } from '../model/plan';

interface LegacyPlan {
  projectId: string;
  namespace: string;
  name: string;
  baseVersion: string;
  added: PushFile[];
  updated: PushFile[];
  removed: PushFile[];
}

type LegacyRecord = Omit<UploadRecord, 'plan'> & {
  plan: LegacyPlan;
  chunks?: Record<string, string[]>;
};

export function isLegacyRecord(record: UploadRecord | LegacyRecord): record is LegacyRecord {
  return !('body' in record.plan) && Array.isArray((record.plan as LegacyPlan).added);
}

/** The record in the current shape; `randomId` makes its push id. */
export function upgradeLegacyRecord(record: LegacyRecord, randomId: () => string): UploadRecord {
  const { chunks = {}, plan, ...rest } = record;
  const withChunks = (file: PushFile): PushFile => ({ ...file, chunks: chunks[file.path] ?? [] });
  return {
    ...rest,
    plan: {
      pushId: randomId(),
      projectId: plan.projectId,
      namespace: plan.namespace,
      name: plan.name,
      body: {
        version: plan.baseVersion,
        changes: {
          added: plan.added.map(withChunks),
          updated: plan.updated.map(withChunks),
          removed: plan.removed,
        },
      },
    },
  };
}
