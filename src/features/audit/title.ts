/**
 * The audit log's title, apart from its screen: the route's crumb reads it in the app's entry,
 * which must not load the screen (and the contract's schemas it uses) with it.
 */
export const AUDIT_TITLE = 'Audit log';
