/**
 * What the project on the server says about an upload: its version number, and whether it
 * already holds what the plan uploads (a finish whose answer was lost).
 */
import type { UploadRecord } from '@/db/db';
import type { ProjectDetail } from '@contract/projects';
import { uploadedFiles } from '../model/plan';

/** Whether `project` already holds exactly what the plan uploads (a finish whose answer was lost). */
export function projectMatchesPlan(project: ProjectDetail, record: UploadRecord): boolean {
  const files = new Map(project.files.map((f) => [f.path, f]));
  const { plan } = record;
  const uploaded = uploadedFiles(plan).every(
    (f) => files.get(f.path)?.checksum.toLowerCase() === f.checksum.toLowerCase(),
  );
  return uploaded && plan.body.changes.removed.every((f) => !files.has(f.path));
}
