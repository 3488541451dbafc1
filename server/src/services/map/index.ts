/**
 * The map of a project's GeoPackage (issue 19; routes/map.ts, contract schemas/map.ts).
 * Work in progress: the routes validate their input; the answers follow.
 */
import type { AppContext } from '../../context';
import type { User } from '../../db/schema';
import { HttpProblem } from '../../errors';
import type { ProjectRef } from '../permissions';
import type {
  MapChanges,
  MapChangesQuery,
  MapFeature,
  MapFeaturePage,
  MapFeatureQuery,
  MapFileQuery,
  MapLayers,
} from '../../schemas/map';

/** A readable file of a project at a version, resolved. */
export interface MapSource {
  checksum: string;
  /** The query named a version: answers may be kept for a while. */
  explicitVersion: boolean;
}

const notYet = () => new HttpProblem(501, 'Not implemented yet');

export async function openMapSource(
  _ctx: AppContext,
  _caller: User | null,
  _ref: ProjectRef,
  _query: MapFileQuery,
): Promise<MapSource> {
  throw notYet();
}

export async function mapLayers(_ctx: AppContext, _source: MapSource): Promise<MapLayers> {
  throw notYet();
}

export async function mapTile(
  _ctx: AppContext,
  _source: MapSource,
  _layer: string,
  _tile: { z: number; x: number; y: number },
): Promise<Buffer | null> {
  throw notYet();
}

export async function mapFeatures(
  _ctx: AppContext,
  _source: MapSource,
  _layer: string,
  _query: MapFeatureQuery,
): Promise<MapFeaturePage> {
  throw notYet();
}

export async function mapFeature(
  _ctx: AppContext,
  _source: MapSource,
  _layer: string,
  _fid: number,
): Promise<MapFeature> {
  throw notYet();
}

export async function mapChanges(
  _ctx: AppContext,
  _caller: User | null,
  _ref: ProjectRef,
  _query: MapChangesQuery,
): Promise<MapChanges | 'pending'> {
  throw notYet();
}
