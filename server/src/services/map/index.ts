/**
 * The map of a project's GeoPackage (issue 19; routes/map.ts, contract schemas/map.ts,
 * decision record 0093-map-vector-tiles.md). The caller's access is checked as for
 * downloads (services/downloads.ts findReadableFile), once per request; for a named version
 * the routes reuse the file found with the caller's access for a few seconds (mapSourceKey,
 * services/permissions/access-window.ts), so the tiles of one view cost one access decision.
 * Everything else is computed from the file's bytes, keyed by their SHA-1 (store.ts) and kept
 * in memory.
 */
import type { AppContext } from '../../context';
import type { User } from '../../db/schema';
import { badRequest, HttpProblem, notFound } from '../../errors';
import { findReadableFile } from '../downloads';
import { getChangeset, versionNumber } from '../history';
import { projectFor, type ProjectRef } from '../permissions';
import { parseVersionName } from '../project-detail';
import { viewLinkAccess } from '../view-links';
import { isVersionedFile } from '../../schemas/protocol';
import { MAX_CHANGESET_ENTRIES } from '../changesets';
import type {
  MapChanges,
  MapChangesQuery,
  MapFeature,
  MapFeaturePage,
  MapFeatureQuery,
  MapFileQuery,
  MapLayers,
} from '../../schemas/map';
import type { MapLayer } from '../../schemas/map';
import { layerChanges } from './changes';
import { LAYER_TOO_COMPLEX, readMap, startMapReader } from './read';
import { LAYER_NOT_DRAWABLE, layerNotFound } from './reader';
import { isKnown, mapFile, type MapFile } from './store';
import { pointIndexOf, pointLayers, renderTile, type TileAddress } from './tiles';

export { LAYER_NOT_DRAWABLE, layerNotFound } from './reader';
export const NOT_A_GEOPACKAGE = 'Only GeoPackage (.gpkg) and SQLite (.sqlite) files have a map';

/** A readable file of a project at a version, resolved. */
export interface MapSource {
  /** The project's id. */
  projectId: string;
  file: string;
  /** The version shown. */
  version: number;
  checksum: string;
  /** The query named a version: answers may be kept for a while. */
  explicitVersion: boolean;
  /** Who asks (lib/sandbox owner: `user:<id>` or `address:<ip>`). */
  owner: string;
  blob: { key: string; checksum: string; size: number };
}

/** Checks access (as for downloads) and finds the file at the version. */
export async function openMapSource(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: MapFileQuery,
  owner: string,
): Promise<MapSource> {
  const requested = parseVersionName(query.version);
  // A view link's holder reads the project while the link lasts.
  const granted = query.link ? await viewLinkAccess(ctx, ref, query.link) : undefined;
  const { access, row } = await findReadableFile(ctx, caller, ref, query.file, requested, granted);
  if (!isVersionedFile(query.file)) throw badRequest(NOT_A_GEOPACKAGE);
  return {
    projectId: access.project.id,
    file: row.path,
    version: requested ?? access.project.latestVersion,
    checksum: row.checksum,
    explicitVersion: requested !== null,
    owner,
    blob: { key: row.blobKey, checksum: row.checksum, size: row.size },
  };
}

/**
 * The access window's key (services/permissions/access-window.ts) of a map request by the
 * caller `credential` (plugins/auth.ts AuthState.credential): the project, the file and the
 * version; null when the request may not reuse a decision (no named version: the latest
 * one is looked up each time; credentials that did not resolve as presented).
 */
export function mapSourceKey(
  credential: string | null,
  ref: { namespace: string; name: string },
  query: MapFileQuery,
): string | null {
  if (credential === null || !query.version) return null;
  return JSON.stringify([
    'map',
    credential,
    ref.namespace,
    ref.name,
    query.file,
    query.version,
    query.link ?? null,
  ]);
}

function layerOf(file: MapFile, name: string): MapLayer {
  const layer = file.layers.get(name);
  if (!layer) throw notFound(layerNotFound(name));
  return layer;
}

/**
 * Starts building the point indexes of a file's point layers in the map reader, without
 * waiting: the tiles asked next find them built or being built. Failures are only logged
 * (a tile asking for the index tries again).
 */
export function warmPointIndexes(ctx: AppContext, file: MapFile): void {
  for (const layer of pointLayers(file)) {
    pointIndexOf(ctx, file, layer).catch((error: unknown) => {
      ctx.log.warn({ err: error, layer: layer.name }, 'A point index could not be built');
    });
  }
}

export async function mapLayers(ctx: AppContext, source: MapSource): Promise<MapLayers> {
  // Loading the reader overlaps copying the file (a first opening).
  if (!isKnown(ctx, source.checksum)) startMapReader(ctx);
  const file = await mapFile(ctx, source.blob, source.owner);
  warmPointIndexes(ctx, file);
  return {
    file: source.file,
    version: `v${source.version}`,
    checksum: source.checksum,
    layers: [...file.layers.values()],
  };
}

export async function mapTile(
  ctx: AppContext,
  source: MapSource,
  layerName: string,
  tile: TileAddress,
): Promise<Buffer | null> {
  const file = await mapFile(ctx, source.blob, source.owner);
  const layer = layerOf(file, layerName);
  if (!layer.drawable) throw new HttpProblem(422, LAYER_NOT_DRAWABLE);
  return renderTile(ctx, file, layer, tile, source.owner);
}

export async function mapFeatures(
  ctx: AppContext,
  source: MapSource,
  layerName: string,
  query: MapFeatureQuery,
): Promise<MapFeaturePage> {
  const file = await mapFile(ctx, source.blob, source.owner);
  const layer = layerOf(file, layerName);
  return readMap(
    ctx,
    { kind: 'features', file: file.path, layer: layer.name, query },
    {
      lane: 'interactive',
      verdictKey: `${file.checksum}/${layer.name}/features?${JSON.stringify(query)}`,
      tooHeavy: LAYER_TOO_COMPLEX,
      owner: source.owner,
    },
  );
}

export async function mapFeature(
  ctx: AppContext,
  source: MapSource,
  layerName: string,
  fid: number,
): Promise<MapFeature> {
  const file = await mapFile(ctx, source.blob, source.owner);
  const layer = layerOf(file, layerName);
  return readMap(
    ctx,
    { kind: 'feature', file: file.path, layer: layer.name, fid },
    {
      lane: 'interactive',
      verdictKey: `${file.checksum}/${layer.name}/feature/${fid}`,
      tooHeavy: LAYER_TOO_COMPLEX,
      owner: source.owner,
    },
  );
}

/** GET …/changes: 'pending' while the changeset is computed. */
export async function mapChanges(
  ctx: AppContext,
  caller: User | null,
  ref: ProjectRef,
  query: MapChangesQuery,
  owner: string,
): Promise<MapChanges | 'pending'> {
  const version = versionNumber(query.version);
  // The caller's access, resolved once for the three reads below (the changeset's own check
  // reuses it: permissions/request-memo.ts).
  const access = await projectFor(ctx, caller, ref, 'read');
  // The changeset's own checks and answers (404 not updated or not a GeoPackage, 422 not
  // computable).
  const changeset = await getChangeset(ctx, caller, ref, query.version, query.file);
  if (changeset.status === 'pending') return 'pending';
  const [after, before] = await Promise.all([
    findReadableFile(ctx, caller, ref, query.file, version, access),
    // An updated file was there in the version before.
    findReadableFile(ctx, caller, ref, query.file, version - 1, access),
  ]);
  if (!isVersionedFile(query.file)) throw badRequest(NOT_A_GEOPACKAGE);
  const entries = JSON.parse(changeset.json) as Parameters<typeof layerChanges>[0];
  const beforeFile = await mapFile(
    ctx,
    { key: before.row.blobKey, checksum: before.row.checksum, size: before.row.size },
    owner,
  );
  const afterFile = await mapFile(
    ctx,
    { key: after.row.blobKey, checksum: after.row.checksum, size: after.row.size },
    owner,
  );
  return layerChanges(
    entries,
    entries.length >= MAX_CHANGESET_ENTRIES,
    { after: afterFile, before: beforeFile },
    { file: after.row.path, version: `v${version}` },
    (layer, fids) =>
      readMap(
        ctx,
        { kind: 'deleted', file: beforeFile.path, layer, fids },
        {
          lane: 'interactive',
          verdictKey: `${beforeFile.checksum}/${layer}/deleted/${afterFile.checksum}`,
          tooHeavy: LAYER_TOO_COMPLEX,
          owner,
        },
      ),
  );
}
