/**
 * Everything the map reads from a GeoPackage or SQLite file, as it runs in the map reader's
 * child processes (read.ts runs it there, within a budget; lib/sandbox): the layers, the
 * tiles of non-point layers, attribute pages, single and deleted features, and point indexes.
 * Nothing here runs on the thread that answers requests.
 *
 * Files are opened read-only by their path (a content-addressed copy, store.ts) and kept open
 * with their layers (at most OPEN_FILES per process). Refusals about the request (unknown
 * layer or column, no such feature) are HTTP problems; a file SQLite cannot read is a 422.
 */
import Database from 'better-sqlite3';
import { HttpProblem, notFound } from '../../errors';
import { isOutOfMemory } from '../../lib/sandbox/memory';
import type {
  MapDeletedFeature,
  MapFeature,
  MapFeaturePage,
  MapFeatureQuery,
  MapLayer,
} from '../../schemas/map';
import { featureByFid, featurePage, featuresWithGeometry } from './features';
import { layerView, readLayers, type LayerInfo } from './gpkg';
import { Lru } from './lru';
import type { TileAddress } from './mvt';
import { buildPointIndex, type PointIndex } from './points';
import { vectorTile } from './vector-tiles';

/** Most files a reader process keeps open. */
export const OPEN_FILES = 16;

export const FILE_UNREADABLE = 'The file cannot be read as a GeoPackage';
export const layerNotFound = (layer: string) => `Layer ${layer} not found`;
export const LAYER_NOT_DRAWABLE = 'The layer has no coordinate reference system the server knows';

export type MapReadRequest =
  | { kind: 'layers'; file: string }
  | { kind: 'tile'; file: string; layer: string; tile: TileAddress }
  | { kind: 'features'; file: string; layer: string; query: MapFeatureQuery }
  | { kind: 'feature'; file: string; layer: string; fid: number }
  | { kind: 'deleted'; file: string; layer: string; fids: number[] }
  | { kind: 'points'; file: string; layer: string };

/** What each kind of request answers. */
export interface MapReadResults {
  layers: MapLayer[];
  tile: Buffer | null;
  features: MapFeaturePage;
  feature: MapFeature;
  deleted: MapDeletedFeature[];
  points: PointIndex;
}

interface OpenFile {
  db: Database.Database;
  layers: Map<string, LayerInfo>;
}

const files = new Lru<OpenFile>(OPEN_FILES, (_path, file) => file.db.close());

function openFile(path: string): OpenFile {
  const open = files.get(path);
  if (open) return open;
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const file = { db, layers: new Map(readLayers(db).map((layer) => [layer.name, layer])) };
    files.set(path, file, 1);
    return file;
  } catch (error) {
    db.close();
    throw error;
  }
}

function layerOf(file: OpenFile, name: string): LayerInfo {
  const layer = file.layers.get(name);
  if (!layer) throw notFound(layerNotFound(name));
  return layer;
}

function drawable(layer: LayerInfo): LayerInfo {
  if (!layer.transform) throw new HttpProblem(422, LAYER_NOT_DRAWABLE);
  return layer;
}

function read(request: MapReadRequest): MapReadResults[MapReadRequest['kind']] {
  const file = openFile(request.file);
  switch (request.kind) {
    case 'layers':
      return [...file.layers.values()].map(layerView);
    case 'tile': {
      const layer = drawable(layerOf(file, request.layer));
      if (layer.geometryType === 'POINT') throw new Error('Point tiles come from the point index');
      return vectorTile(file.db, layer, request.tile);
    }
    case 'features':
      return featurePage(file.db, layerOf(file, request.layer), request.query);
    case 'feature':
      return featureByFid(file.db, layerOf(file, request.layer), request.fid);
    case 'deleted':
      return featuresWithGeometry(file.db, layerOf(file, request.layer), request.fids);
    case 'points': {
      const layer = drawable(layerOf(file, request.layer));
      if (layer.geometryType !== 'POINT')
        throw new Error(`Layer ${layer.name} is not a point layer`);
      return buildPointIndex(file.db, layer);
    }
  }
}

/** Answers one request (in a map reader process). */
export function runMapRead(request: MapReadRequest): MapReadResults[MapReadRequest['kind']] {
  try {
    return read(request);
  } catch (error) {
    // A file SQLite cannot read (not a database, corrupt, a schema it refuses) is the file's
    // fault: 422. Running out of memory is reported as such by the sandbox.
    if (error instanceof Database.SqliteError && !isOutOfMemory(error)) {
      throw new HttpProblem(422, FILE_UNREADABLE);
    }
    throw error;
  }
}
