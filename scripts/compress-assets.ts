/**
 * A Vite plugin that writes a Brotli (.br) and a gzip (.gz) copy beside every text file the
 * build emits (JS, CSS, HTML, SVG, JSON, the web manifest, WebAssembly), so the server sends
 * them compressed (server/src/plugins/static-files.ts, @fastify/static `preCompressed`)
 * without compressing on each request. A copy is written only when it is smaller. Source maps
 * are left alone: only developers' tools fetch them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|wasm)$/;
/** Below this the headers cost more than the saving. */
const MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The compressed copies of `bytes` worth writing, by file extension. */
export async function compressedCopies(
  name: string,
  bytes: Uint8Array,
): Promise<Map<string, Buffer>> {
  const copies = new Map<string, Buffer>();
  if (!COMPRESSIBLE.test(name) || bytes.byteLength < MIN_BYTES) return copies;
  const [br, gzipped] = await Promise.all([
    brotli(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
    gz(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  if (br.byteLength < bytes.byteLength) copies.set('.br', br);
  if (gzipped.byteLength < bytes.byteLength) copies.set('.gz', gzipped);
  return copies;
}

export function compressAssets(): Plugin {
  return {
    name: 'waymark-compress-assets',
    apply: 'build',
    enforce: 'post',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) return;
      await Promise.all(
        Object.values(bundle).map(async (output) => {
          const bytes =
            output.type === 'chunk'
              ? Buffer.from(output.code)
              : typeof output.source === 'string'
                ? Buffer.from(output.source)
                : output.source;
          const copies = await compressedCopies(output.fileName, bytes);
          await Promise.all(
            [...copies].map(([ext, data]) => writeFile(join(dir, output.fileName + ext), data)),
          );
        }),
      );
    },
  };
}
