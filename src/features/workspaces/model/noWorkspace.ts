/** The onboarding page's title for a signed-in user without a workspace (spec 000). */
export const NO_WORKSPACE_TITLE = 'You are not a member of any workspace yet';
