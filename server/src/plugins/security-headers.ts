/**
 * Security headers on every response (HTML, static assets, API, errors), set in onSend.
 *
 * - Content-Security-Policy for the app (APP_CSP): only what the built PWA uses: scripts
 *   and workers from this origin, WebAssembly compilation for the hashing worker's SHA-1
 *   ('wasm-unsafe-eval', no JS eval), styles from this origin plus inline <style> elements
 *   (Mantine injects its CSS variables and responsive style props as <style> tags at run
 *   time, so 'unsafe-inline' is needed for styles; never for scripts), images from this
 *   origin, data: and blob: (file previews), fetches to this origin only, no plugins, no
 *   framing, forms and <base> pinned. A configured basemap (BASEMAP_URL) adds its tile
 *   origins to img-src and connect-src (appCsp).
 * - Project files (any response sent as an attachment) get FILE_CSP instead: a sandbox with
 *   nothing allowed, so even a file opened directly in a tab cannot run script in the
 *   app's origin.
 * - The embed page of a public project's map (`/embed/…`, a page of the PWA) may be shown in
 *   frames: its CSP's frame-ancestors are the sites EMBED_ORIGINS allows (any by default),
 *   and it has no X-Frame-Options (which cannot name sites).
 * - X-Content-Type-Options nosniff, X-Frame-Options DENY, Referrer-Policy same-origin,
 *   Cross-Origin-Opener-Policy same-origin, Cross-Origin-Resource-Policy same-origin,
 *   Permissions-Policy denying sensors and devices the app never uses (the app's own pages
 *   may ask for the device's position: field capture's 'Use my location', issue 34), and HSTS when
 *   BASE_URL is https.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The origins of a basemap's XYZ URL template (`{a-c}` expands to one host per letter):
 * its tiles are images on the map and fetches of the service worker (offline copies).
 */
export function basemapOrigins(template: string): string[] {
  const letters = /\{([a-z])-([a-z])\}/.exec(template);
  const hosts: string[] = [];
  if (letters) {
    for (let c = letters[1]!.charCodeAt(0); c <= letters[2]!.charCodeAt(0); c++) {
      hosts.push(template.replace(letters[0], String.fromCharCode(c)));
    }
  } else hosts.push(template);
  const origins = hosts.map((url) => new URL(url.replace(/\{[xyz]\}/g, '0')).origin);
  return [...new Set(origins)];
}

/** APP_CSP with a basemap's origins allowed for images and fetches (none: APP_CSP). */
export function appCsp(basemap: { url: string } | null): string {
  if (!basemap) return APP_CSP;
  const origins = basemapOrigins(basemap.url).join(' ');
  return APP_CSP.split('; ')
    .map((directive) =>
      directive.startsWith('img-src ') || directive.startsWith('connect-src ')
        ? `${directive} ${origins}`
        : directive,
    )
    .join('; ');
}

/** The frame-ancestors of the embed page under EMBED_ORIGINS (null: any site). */
export function embedFrameAncestors(origins: readonly string[] | null): string {
  if (origins === null) return 'frame-ancestors *';
  return origins.length === 0 ? "frame-ancestors 'none'" : `frame-ancestors ${origins.join(' ')}`;
}

/** A CSP with its frame-ancestors replaced. */
export function withFrameAncestors(csp: string, ancestors: string): string {
  return csp
    .split('; ')
    .map((directive) => (directive.startsWith('frame-ancestors ') ? ancestors : directive))
    .join('; ');
}

/** Paths of the embed page (client routes, src/routes/embed.*). */
export const EMBED_PATH = /^\/embed\//;

export const FILE_CSP = "sandbox; default-src 'none'; frame-ancestors 'none'";

export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'geolocation=(self)',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'payment=()',
  'usb=()',
].join(', ');

/** One year, subdomains untouched (the operator may host other things there). */
export const HSTS = 'max-age=31536000';

function isAttachment(reply: FastifyReply): boolean {
  const disposition = reply.getHeader('content-disposition');
  return typeof disposition === 'string' && /^\s*attachment/i.test(disposition);
}

/** Sets the security headers on a reply (also used where onSend hooks do not run). */
export function applySecurityHeaders(
  reply: FastifyReply,
  https: boolean,
  csp: string = APP_CSP,
  framed = false,
): void {
  reply.header('content-security-policy', isAttachment(reply) ? FILE_CSP : csp);
  reply.header('x-content-type-options', 'nosniff');
  if (framed) reply.removeHeader('x-frame-options');
  else reply.header('x-frame-options', 'DENY');
  reply.header('referrer-policy', 'same-origin');
  reply.header('cross-origin-opener-policy', 'same-origin');
  reply.header('cross-origin-resource-policy', 'same-origin');
  reply.header('permissions-policy', PERMISSIONS_POLICY);
  if (https) reply.header('strict-transport-security', HSTS);
}

export default fp(
  async (app) => {
    const https = app.ctx.config.secureCookies;
    const csp = appCsp(app.ctx.config.basemap);
    const embedCsp = withFrameAncestors(csp, embedFrameAncestors(app.ctx.config.embedOrigins));
    app.addHook('onSend', async (request, reply, payload) => {
      const embed = EMBED_PATH.test(request.url);
      applySecurityHeaders(reply, https, embed ? embedCsp : csp, embed);
      return payload;
    });
  },
  { name: 'waymark-security-headers' },
);
