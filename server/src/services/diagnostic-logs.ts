/**
 * Diagnostic logs sent by the desktop plugin's "send logs" (client-compat §8): since /config
 * reports a version ≥ 2025.4 with an empty `diagnostic_logs_url`, the plugin posts them here
 * instead of to its vendor, so users' logs never leave the install. Each is kept as
 * DATA_DIR/diagnostic-logs/<time>-<8 hex>.log (a header naming the app, the username given
 * and the signed-in user, then the text); at most MAX_LOG_FILES are kept, oldest removed.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context';
import type { User } from '../db/schema';
import { HttpProblem } from '../errors';
import type { LogQuery } from '../schemas/diagnostic-logs';

export const LOGS_DIR = 'diagnostic-logs';
/** Largest log accepted: 10 MiB. */
export const MAX_LOG_BYTES = 10 * 1024 * 1024;
export const MAX_LOG_FILES = 100;
export const LOG_TOO_LARGE = `Logs larger than ${MAX_LOG_BYTES / 1024 / 1024} MB are not accepted`;

const clean = (text: string | undefined) =>
  (text ?? '').replace(/[^\w .@+/:()-]/g, '_').slice(0, 200);

export async function saveDiagnosticLog(
  ctx: AppContext,
  caller: User | null,
  query: LogQuery,
  body: AsyncIterable<Uint8Array | string>,
): Promise<{ file: string }> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of body) {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece);
    size += bytes.length;
    if (size > MAX_LOG_BYTES) throw new HttpProblem(413, LOG_TOO_LARGE);
    pieces.push(bytes);
  }
  const dir = path.join(ctx.config.dataDir, LOGS_DIR);
  await fsp.mkdir(dir, { recursive: true });
  const now = ctx.now();
  const name = `${now.toISOString().replace(/:/g, '-')}-${randomBytes(4).toString('hex')}.log`;
  const header =
    `app: ${clean(query.app)}\nusername: ${clean(query.username)}\n` +
    `signed in as: ${caller ? caller.username : '(anonymous)'}\nreceived: ${now.toISOString()}\n\n`;
  await fsp.writeFile(path.join(dir, name), Buffer.concat([Buffer.from(header), ...pieces]));
  const names = (await fsp.readdir(dir)).filter((n) => n.endsWith('.log')).sort();
  for (const old of names.slice(0, Math.max(0, names.length - MAX_LOG_FILES))) {
    await fsp.rm(path.join(dir, old), { force: true });
  }
  ctx.log.info({ file: name, app: clean(query.app), size }, 'Diagnostic logs received');
  return { file: name };
}
