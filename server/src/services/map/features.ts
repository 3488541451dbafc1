/**
 * A layer's attribute rows: pages sorted by any column and filtered by text and/or fids,
 * one feature by fid. Sort columns are checked against the layer's real columns; values
 * reach SQL only as parameters.
 */
import type Database from 'better-sqlite3';
import { badRequest, notFound } from '../../errors';
import {
  DEFAULT_FEATURES_PER_PAGE,
  MAX_FID_FILTER,
  type MapDeletedFeature,
  type MapFeature,
  type MapFeaturePage,
  type MapFeatureQuery,
  type MapValue,
} from '../../schemas/map';
import { extentTo3857 } from './crs';
import { decodeGeometry, geometryExtent, toGeoJson } from './geometry';
import { q, type LayerColumn, type LayerInfo } from './gpkg';

export const unknownColumn = (column: string) => `Unknown column ${column}`;
export const featureNotFound = (fid: number) => `Feature ${fid} not found`;
export const TOO_MANY_FIDS = `At most ${MAX_FID_FILTER} fids`;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** A cell as the contract shows it. */
function value(raw: unknown, column: LayerColumn): MapValue {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'bigint') {
    return raw <= MAX_SAFE && raw >= -MAX_SAFE ? Number(raw) : raw.toString();
  }
  if (raw instanceof Uint8Array) return `BLOB (${raw.length} bytes)`;
  if (column.type === 'boolean' && (raw === 0 || raw === 1)) return raw === 1;
  if (typeof raw === 'number' || typeof raw === 'string') return raw;
  return String(raw);
}

/** The geometry's type and its extent in EPSG:3857. */
function geometryFacts(
  layer: LayerInfo,
  blob: unknown,
): Pick<MapFeature, 'geometry_type' | 'extent_3857'> {
  const wkb = decodeGeometry(blob);
  if (!wkb) return { geometry_type: null, extent_3857: null };
  const transform = layer.transform;
  const lonLat = transform && geometryExtent(wkb, transform.toLonLat);
  return {
    geometry_type: wkb.type,
    extent_3857: lonLat && extentTo3857(lonLat),
  };
}

function featureOf(layer: LayerInfo, row: unknown[]): MapFeature {
  const [fid, blob, ...cells] = row;
  const properties: Record<string, MapValue> = {};
  layer.columns.forEach((column, i) => {
    properties[column.name] = value(cells[i], column);
  });
  return { fid: Number(fid), ...geometryFacts(layer, blob), properties };
}

function selectList(layer: LayerInfo): string {
  return [layer.fidColumn, layer.geometryColumn, ...layer.columns.map((c) => c.name)]
    .map(q)
    .join(', ');
}

/** The fids of a `fids` filter (the schema has checked its form). */
export function parseFids(text: string): number[] {
  const fids = [...new Set(text.split(',').map(Number))];
  if (fids.length > MAX_FID_FILTER) throw badRequest(TOO_MANY_FIDS);
  return fids;
}

/** GET …/features/{layer}. */
export function featurePage(
  db: Database.Database,
  layer: LayerInfo,
  query: MapFeatureQuery,
): MapFeaturePage {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? DEFAULT_FEATURES_PER_PAGE;
  const sort = query.sort ?? layer.fidColumn;
  if (sort !== layer.fidColumn && !layer.columns.some((c) => c.name === sort)) {
    throw badRequest(unknownColumn(sort));
  }
  const where: string[] = [];
  const params: unknown[] = [];
  if (query.fids !== undefined) {
    const fids = parseFids(query.fids);
    where.push(`${q(layer.fidColumn)} IN (${fids.map(() => '?').join(', ')})`);
    params.push(...fids);
  }
  const filter = query.filter?.trim().toLowerCase();
  if (filter) {
    const searched = [
      layer.fidColumn,
      ...layer.columns.filter((c) => c.type !== 'blob').map((c) => c.name),
    ];
    where.push(
      `(${searched.map((c) => `instr(lower(CAST(${q(c)} AS TEXT)), ?) > 0`).join(' OR ')})`,
    );
    params.push(...searched.map(() => filter));
  }
  const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const count = db
    .prepare(`SELECT count(*) FROM ${q(layer.name)} ${clause}`)
    .pluck()
    .get(...params);
  const direction = query.order === 'desc' ? 'DESC' : 'ASC';
  const rows = db
    .prepare(
      `SELECT ${selectList(layer)} FROM ${q(layer.name)} ${clause}
        ORDER BY ${q(sort)} ${direction}, ${q(layer.fidColumn)} ${direction} LIMIT ? OFFSET ?`,
    )
    .raw()
    .all(...params, perPage, (page - 1) * perPage) as unknown[][];
  return {
    count: Number(count),
    page,
    per_page: perPage,
    columns: layer.columns.map(({ name, type }) => ({ name, type })),
    features: rows.map((row) => featureOf(layer, row)),
  };
}

/** GET …/features/{layer}/{fid}: with the full geometry in lon/lat (for editing). */
export function featureByFid(db: Database.Database, layer: LayerInfo, fid: number): MapFeature {
  const row = db
    .prepare(`SELECT ${selectList(layer)} FROM ${q(layer.name)} WHERE ${q(layer.fidColumn)} = ?`)
    .raw()
    .get(fid) as unknown[] | undefined;
  if (!row) throw notFound(featureNotFound(fid));
  const wkb = decodeGeometry(row[1]);
  const geometry = wkb && layer.transform ? toGeoJson(wkb, layer.transform.toLonLat) : null;
  return { ...featureOf(layer, row), geometry };
}

/** Features by fid with their geometry as GeoJSON in lon/lat (deleted features). */
export function featuresWithGeometry(
  db: Database.Database,
  layer: LayerInfo,
  fids: number[],
): MapDeletedFeature[] {
  const out: MapDeletedFeature[] = [];
  const select = db
    .prepare(`SELECT ${selectList(layer)} FROM ${q(layer.name)} WHERE ${q(layer.fidColumn)} = ?`)
    .raw();
  for (const fid of fids) {
    const row = select.get(fid) as unknown[] | undefined;
    if (!row) continue;
    const feature = featureOf(layer, row);
    const wkb = decodeGeometry(row[1]);
    const geometry = wkb && layer.transform ? toGeoJson(wkb, layer.transform.toLonLat) : null;
    out.push({ fid, geometry, properties: feature.properties });
  }
  return out;
}
