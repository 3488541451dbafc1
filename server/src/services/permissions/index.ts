/**
 * The one permission module every route's check goes through (README.md names the entry
 * points: assertSignedIn, projectFor, workspaceFor, managedWorkspace, uploadFor; rules.ts
 * holds the rules).
 * A request's access to a project or workspace is resolved once and reused by everything the
 * request calls (request-memo.ts); the map's many requests of one view reuse a decision for a
 * few seconds (access-window.ts).
 */
export * from './rules';
export * from './access-window';
export * from './request-memo';
export * from './project';
export * from './session';
export * from './upload';
export * from './workspace';
