/**
 * Which navigations the service worker answers with the precached index.html (client routes),
 * and which go to the network: the API and instance endpoints (OGC API - Features pages too),
 * the embed page of a public map (shown in other sites' frames: the server's answer carries
 * the frame permission EMBED_ORIGINS gives, which the precached copy does not), and file URLs
 * (anything whose last path segment has an extension), except under client routes whose
 * parameters may contain dots (project and folder names, email and password tokens, view-link tokens).
 */
export const SERVER_PREFIXES: readonly string[] = [
  '/v1',
  '/v2',
  '/app',
  '/ogc',
  '/embed',
  '/ping',
  '/config',
  '/alive',
];
const DOTTED_CLIENT_PREFIXES: readonly string[] = [
  '/projects/',
  '/confirm-email/',
  '/change-password/',
  '/view/',
];

function under(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

export function isClientRoute(pathname: string): boolean {
  if (SERVER_PREFIXES.some((prefix) => under(pathname, prefix))) return false;
  if (DOTTED_CLIENT_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return true;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !/\.[^.]+$/.test(last);
}
