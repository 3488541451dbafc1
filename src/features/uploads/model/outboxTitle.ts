/**
 * The Outbox's title (issue 18), apart from outboxTexts.ts: the route's breadcrumb is in the
 * first screens' code, and a module the entry imports goes there whole.
 */
export const OUTBOX_TITLE = 'Outbox';
