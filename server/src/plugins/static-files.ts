/**
 * Serves the built PWA (vite's dist folder) for requests no API route handled.
 *
 * - Hashed files under /assets/ are immutable: cached for a year.
 * - Text files go Brotli- or gzip-compressed when the build wrote such copies and the browser
 *   accepts them (Vary: Accept-Encoding).
 * - Everything else (index.html, sw.js, registerSW.js, manifest.webmanifest, icons) is
 *   revalidated on each use (no-cache), so a new deployment is picked up at once.
 * - A GET/HEAD that accepts HTML for an unknown path outside the API prefixes gets
 *   index.html (client-side routes such as /dashboard or /projects/a/b/tree/x).
 * A missing dist folder only disables all this; the API keeps working.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export interface StaticFiles {
  /** Serves the request from dist when possible; false when the caller should answer 404. */
  tryServe(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

function acceptsHtml(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/html');
}

/** Registers @fastify/static (decorates reply.sendFile) on `app`; call before it boots. */
export function registerStaticFiles(app: FastifyInstance, distDir: string | null): StaticFiles {
  if (!distDir) return { tryServe: async () => false };
  const root = path.resolve(distDir);
  // No `root` here: the folder may not exist yet (built after start); sendFile gets it.
  // The build writes .br and .gz copies beside its text files (scripts/compress-assets.ts):
  // sent as the browser accepts them, the file itself otherwise (and where there is none).
  app.register(fastifyStatic, {
    serve: false,
    cacheControl: false,
    etag: true,
    preCompressed: true,
  });
  if (!fsSync.existsSync(root)) {
    app.log.info(`No built web app in ${root} (run npm run build); serving the API only`);
  }

  async function send(reply: FastifyReply, relative: string): Promise<true> {
    const immutable = relative.startsWith('assets/');
    reply.header('cache-control', immutable ? IMMUTABLE : REVALIDATE);
    await reply.sendFile(relative, root, { cacheControl: false });
    return true;
  }

  return {
    async tryServe(request, reply) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      let pathname: string;
      try {
        pathname = decodeURIComponent(request.url.split('?')[0]!);
      } catch {
        return false;
      }
      const segments = pathname.split('/').filter((s) => s !== '');
      const safe = segments.every(
        (s) => !s.startsWith('.') && !s.includes('\\') && !s.includes('\0'),
      );
      if (safe && segments.length > 0) {
        const relative = segments.join('/');
        const file = path.join(root, relative);
        if (file.startsWith(root + path.sep) && (await isFile(file))) return send(reply, relative);
      }
      // Missing hashed assets must 404 (a stale service worker would cache HTML as JS).
      if (segments[0] === 'assets') return false;
      if (
        (segments.length === 0 || acceptsHtml(request)) &&
        (await isFile(path.join(root, 'index.html')))
      ) {
        return send(reply, 'index.html');
      }
      return false;
    },
  };
}
