/**
 * What both sides of a tile share (the point tiles built here from the point index, tiles.ts;
 * the other layers' tiles built in the map reader, vector-tiles.ts): the tile's box with its
 * buffer, the MVT encoding and the features' ids.
 */
import { fromGeojsonVt, type VtFeature } from 'vt-pbf';
import { TILE_EXTENT } from '../../schemas/map';
import { MAX_LATITUDE } from './crs';

/** Buffer around a tile, in tile units (as geojson-vt's default). */
export const TILE_BUFFER = 64;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** The tile (with its buffer) in the unit square. */
export function unitBox({ z, x, y }: TileAddress): number[] {
  const size = 2 ** z;
  const b = TILE_BUFFER / TILE_EXTENT;
  return [(x - b) / size, (y - b) / size, (x + 1 + b) / size, (y + 1 + b) / size];
}

export function unitToLonLat(ux: number, uy: number): [number, number] {
  const lon = ux * 360 - 180;
  const lat = (Math.atan(Math.sinh(Math.PI * (1 - 2 * uy))) * 180) / Math.PI;
  return [lon, Math.max(-MAX_LATITUDE, Math.min(MAX_LATITUDE, lat))];
}

/** The MVT bytes of one layer's features; null when there are none. */
export function encodeTile(layer: string, features: VtFeature[]): Buffer | null {
  if (features.length === 0) return null;
  const bytes = fromGeojsonVt({ [layer]: { features } }, { version: 2, extent: TILE_EXTENT });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A feature's MVT id: its fid when that is a non-negative integer. */
export const mvtId = (fid: number) => (Number.isSafeInteger(fid) && fid >= 0 ? fid : undefined);
