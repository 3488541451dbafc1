/**
 * The history feature's public face: what other features may use (src/README.md). Everything
 * else in this folder is internal; routes and the app import it directly.
 */
export { versionQueryKey } from './api/version';
export { versionsQueryKey } from './api/versions';
export { ChangesetSummaryTable } from './components/ChangesetSummaryTable';
export { ChangesetTable } from './components/ChangesetTable';
export { FileLine } from './components/FileLine';
export { changesetTables, formatChangeValue, type ChangesetEntry } from './model/changeset';
export { FILE_GROUPS } from './model/version';
