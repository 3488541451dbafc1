/**
 * Route metadata besides breadcrumbs: `needsWorkspace` marks pages that make sense only inside a
 * workspace (the dashboard). A logged user without any workspace gets the onboarding layout
 * there instead; /profile stays available (spec 000 §2).
 */
declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    needsWorkspace?: boolean;
  }
}

export function needsWorkspace(
  matches: readonly { staticData?: { needsWorkspace?: boolean } }[],
): boolean {
  return matches.some((match) => match.staticData?.needsWorkspace === true);
}
