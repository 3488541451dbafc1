/**
 * Where to go after sign-in: the `redirect` search value when it is a same-origin relative path
 * ('/projects?x=1'), else the default route. Anything that could leave the site ('//evil.com',
 * '/\\evil.com', 'https://…', 'javascript:…') is refused.
 */
export const DEFAULT_AFTER_LOGIN = '/dashboard' as const;

export function safeRedirectTarget(value: unknown, fallback: string = DEFAULT_AFTER_LOGIN): string {
  if (typeof value !== 'string') return fallback;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  // Control characters and backslashes are refused: browsers treat '\' like '/' in URLs.
  if (
    value.includes('\\') ||
    Array.from(value).some((c) => c.charCodeAt(0) < 0x20 || c === '\u007f')
  ) {
    return fallback;
  }
  try {
    const base = 'http://waymark.invalid';
    const url = new URL(value, base);
    if (url.origin !== base) return fallback;
    // Never send the user back to the sign-in page itself.
    if (url.pathname === '/login' || url.pathname.startsWith('/login/')) return fallback;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return fallback;
  }
}
