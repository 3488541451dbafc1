/**
 * The one permission module every route's check goes through (see rules.ts for the rules).
 */
export * from './rules';
export * from './project';
export * from './session';
export * from './workspace';
