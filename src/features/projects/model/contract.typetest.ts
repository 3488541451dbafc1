/**
 * Compile-time checks (run by `npm run typecheck`, never executed): the web app's types come
 * from the server's wire contract (server/src/schemas/, imported as `@contract/…`), so a
 * response field removed or renamed there breaks the app's typecheck, and reading a field
 * the server does not declare does not compile.
 */
import type { ProjectDetail } from '@contract/projects';
import type { ProjectListItem } from './projectList';

declare const answer: ProjectDetail;
declare const item: ProjectListItem;

/** Declared fields read as their declared types. */
export const declared: [number, number, string | null, number] = [
  answer.workspace_id,
  answer.disk_usage,
  answer.locked_until,
  item.disk_usage,
];

/** Fields the server does not declare. */
export const undeclared = [
  // @ts-expect-error: a project detail has no `owner` (owners are in `access`).
  answer.owner,
  // @ts-expect-error: a list item has no `size` (it is `disk_usage`).
  item.size,
];
