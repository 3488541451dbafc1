/**
 * Exports of one layer at any version (issue 32; contract schemas/export.ts, route
 * routes/export.ts). Access is checked as for downloads (map/index.ts openMapSource); the
 * rows are read and written in the sandbox (writer.ts, the background lane: an export of a
 * large layer may take longer than a map tile) to a temporary file under DATA_DIR/tmp/export,
 * which the route streams and which is gone from the folder as soon as it is opened.
 */
import { projectScopeById, recordAudit } from '../audit';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context';
import type { User } from '../../db/schema';
import { notFound } from '../../errors';
import { sandboxModule } from '../../lib/sandbox';
import { EXPORT_FILE_TYPES, type ExportQuery } from '../../schemas/export';
import { layerNotFound, openMapSource } from '../map';
import { mapFile } from '../map/store';
import type * as Writer from './writer';

export const EXPORT_TOO_COMPLEX = 'This layer is too large or too complex to export';

/** Temporary files older than this are left-overs of a stopped server: removed. */
const STALE_MS = 60 * 60 * 1000;

const runExport = sandboxModule<typeof Writer>(new URL('./writer.ts', import.meta.url)).fn(
  'writeExport',
);

export interface ExportFile {
  /** The temporary file (the caller streams it, then it is removed). */
  path: string;
  size: number;
  fileName: string;
  contentType: string;
  features: number;
}

export function exportDir(ctx: AppContext): string {
  return path.join(ctx.config.dataDir, 'tmp', 'export');
}

const swept = new WeakSet<AppContext>();

/** Removes left-overs of a server stopped while exporting (once per app). */
async function sweep(ctx: AppContext, dir: string): Promise<void> {
  if (swept.has(ctx)) return;
  swept.add(ctx);
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [])) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => null);
    if (info && now - info.mtimeMs > STALE_MS) await rm(file, { force: true });
  }
}

/** A name part without what file systems refuse (path separators, control characters). */
function namePart(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, '_').trim() || '_';
}

/** `<project>-<layer>-v<N>.<ext>`. */
export function exportFileName(
  project: string,
  layer: string,
  version: number,
  extension: string,
): string {
  return `${namePart(project)}-${namePart(layer)}-v${version}.${extension}`;
}

/** Writes the export of a layer to a temporary file (the caller streams and removes it). */
export async function prepareExport(
  ctx: AppContext,
  caller: User | null,
  ref: { namespace: string; name: string },
  layerName: string,
  query: ExportQuery,
  owner: string,
  /** False for a HEAD request: the file's headers are answered, nothing is exported. */
  audited = true,
): Promise<ExportFile> {
  const source = await openMapSource(
    ctx,
    caller,
    ref,
    { file: query.file, version: query.version },
    owner,
  );
  const file = await mapFile(ctx, source.blob, owner);
  if (!file.layers.has(layerName)) throw notFound(layerNotFound(layerName));
  const type = EXPORT_FILE_TYPES[query.format];
  const dir = exportDir(ctx);
  await mkdir(dir, { recursive: true });
  await sweep(ctx, dir);
  const out = path.join(dir, `${randomUUID()}.${type.extension}`);
  const selection = {
    filter: query.filter,
    sort: query.sort,
    order: query.order,
    fids: query.fids,
  };
  try {
    const { features } = await runExport(
      ctx,
      {
        lane: 'background',
        verdictKey: `${file.checksum}/${layerName}/export/${query.format}?${JSON.stringify(selection)}`,
        tooHeavy: EXPORT_TOO_COMPLEX,
        owner,
      },
      { file: file.path, layer: layerName, format: query.format, query: selection, out },
    );
    const { size } = await stat(out);
    if (audited) {
      await recordAudit(ctx, ctx.database.db, {
        action: 'project.exported',
        ...(await projectScopeById(ctx.database.db, source.projectId)),
        target: { type: 'layer', name: layerName },
        details: { file: source.file, version: source.version, format: query.format, features },
      });
    }
    return {
      path: out,
      size,
      fileName: exportFileName(ref.name, layerName, source.version, type.extension),
      contentType: type.contentType,
      features,
    };
  } catch (error) {
    await rm(out, { force: true });
    throw error;
  }
}
