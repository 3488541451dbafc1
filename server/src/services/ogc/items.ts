/**
 * What runs in the sandbox (lib/sandbox) for OGC API - Features: pages of a layer's features
 * in fid order after a cursor (a keyset: every page costs the same however deep), filtered by
 * a bbox (the spatial index first, then each feature's box), a datetime range on a date
 * column and equal attribute values; one feature by fid; a date column's range. Files are
 * opened as the map reader opens them (map/reader.ts) and features written as GeoJSON text
 * (values exact, as exports write them).
 */
import { HttpProblem, notFound } from '../../errors';
import { cellOf, jsonCell } from '../export/cells';
import { rightHandRule } from '../export/geometry';
import { featureNotFound, selectList } from '../map/features';
import { decodeGeometry, geometryExtent, headerEnvelope, toGeoJson } from '../map/geometry';
import { transformExtent } from '../map/crs';
import { q, type LayerInfo } from '../map/gpkg';
import { LAYER_NOT_DRAWABLE, layerOf, openFile, readingFile } from '../map/reader';
import type { Extent } from '../../schemas/map';
import { northFirst } from './crs';

/** `CRS84` (lon/lat) or the layer's own CRS (in its axis order). */
export type OutputCrs = 'CRS84' | 'own';

export interface DatetimeFilter {
  column: string;
  /** ISO date or date-time, inclusive; null: open. */
  start: string | null;
  end: string | null;
  /** The end is a date: the whole day counts. */
  endIsDay: boolean;
}

export interface ItemsRequest {
  file: string;
  layer: string;
  limit: number;
  /** Features after this fid (the `cursor` of a next link). */
  after: number | null;
  /** minx, miny, maxx, maxy in `crs`'s axis order. */
  bbox: { box: number[]; crs: OutputCrs } | null;
  datetime: DatetimeFilter | null;
  /** Attribute equalities, values as SQL compares them. */
  properties: { column: string; value: string | number }[];
  crs: OutputCrs;
}

export interface ItemsPage {
  /** The features as GeoJSON text, comma-separated. */
  features: string;
  returned: number;
  /** The fid to continue after, or null on the last page. */
  next: number | null;
}

/** lon/lat for CRS84; the file's x/y, swapped for a north-first CRS. */
function projection(layer: LayerInfo, crs: OutputCrs): (x: number, y: number) => [number, number] {
  if (crs === 'CRS84') {
    if (!layer.transform) throw new HttpProblem(422, LAYER_NOT_DRAWABLE);
    return layer.transform.toLonLat;
  }
  return northFirst(layer.crs, layer.srs?.definition ?? undefined)
    ? (x, y) => [y, x]
    : (x, y) => [x, y];
}

/** The feature text of a row `[fid, geometry, ...attributes]`. */
function featureText(layer: LayerInfo, row: unknown[], crs: OutputCrs): string {
  const [fid, blob, ...values] = row;
  const wkb = decodeGeometry(blob);
  const geometry = wkb ? toGeoJson(wkb, projection(layer, crs)) : null;
  let properties = '';
  layer.columns.forEach((column, i) => {
    properties += `${i > 0 ? ',' : ''}${JSON.stringify(column.name)}:${jsonCell(cellOf(values[i], column))}`;
  });
  const shaped = geometry && crs === 'CRS84' ? rightHandRule(geometry) : geometry;
  return `{"type":"Feature","id":${jsonCell(cellOf(fid, { type: 'integer' }))},"geometry":${
    shaped ? JSON.stringify(shaped) : 'null'
  },"properties":{${properties}}}`;
}

function intersects(a: Extent, b: Extent): boolean {
  return a[0]! <= b[2]! && a[2]! >= b[0]! && a[1]! <= b[3]! && a[3]! >= b[1]!;
}

/** A geometry blob's box in the layer's CRS, or null. */
function boxOf(blob: unknown): Extent | null {
  const box = headerEnvelope(blob);
  if (box && box.every(Number.isFinite)) return box;
  const geometry = decodeGeometry(blob);
  return geometry ? geometryExtent(geometry, (x, y) => [x, y]) : null;
}

/** The bbox as the layer's x/y box, and a test of a feature's box against the bbox. */
function bboxFilter(layer: LayerInfo, bbox: NonNullable<ItemsRequest['bbox']>) {
  const [a, b, c, d] = bbox.box as [number, number, number, number];
  if (bbox.crs === 'own') {
    const box = northFirst(layer.crs, layer.srs?.definition ?? undefined)
      ? [b, a, d, c]
      : [a, b, c, d];
    return { layerBox: box, test: (own: Extent) => intersects(own, box) };
  }
  const transform = layer.transform;
  if (!transform) throw new HttpProblem(422, LAYER_NOT_DRAWABLE);
  const lonLat = [a, b, c, d];
  // The lon/lat box in the layer's CRS (its edges sampled: a superset), then each feature's
  // own box in lon/lat.
  const layerBox = transformExtent(lonLat, transform.fromLonLat) ?? [
    -Infinity,
    -Infinity,
    Infinity,
    Infinity,
  ];
  return {
    layerBox,
    test: (own: Extent) => {
      const box = transformExtent(own, transform.toLonLat, 2);
      return box !== null && intersects(box, lonLat);
    },
  };
}

/** A page of features (GET …/items). */
export function readItems(request: ItemsRequest): ItemsPage {
  return readingFile(() => {
    const file = openFile(request.file);
    const layer = layerOf(file, request.layer);
    // The output projection is checked before any row is read.
    projection(layer, request.crs);
    const fid = q(layer.fidColumn);
    const where: string[] = [];
    const params: unknown[] = [];
    if (request.after !== null) {
      where.push(`${fid} > ?`);
      params.push(request.after);
    }
    const bbox = request.bbox ? bboxFilter(layer, request.bbox) : null;
    if (bbox && layer.index) {
      const i = layer.index;
      where.push(
        `${fid} IN (SELECT ${q(i.id)} FROM ${q(i.table)} WHERE ${q(i.maxx)} >= ? AND ${q(i.minx)} <= ? AND ${q(i.maxy)} >= ? AND ${q(i.miny)} <= ?)`,
      );
      const [minx, miny, maxx, maxy] = bbox.layerBox;
      params.push(minx, maxx, miny, maxy);
    }
    for (const { column, value } of request.properties) {
      where.push(`${q(column)} = ?`);
      params.push(value);
    }
    const datetime = request.datetime;
    if (datetime) {
      const column = `julianday(${q(datetime.column)})`;
      if (datetime.start !== null) {
        where.push(`${column} >= julianday(?)`);
        params.push(datetime.start);
      }
      if (datetime.end !== null) {
        where.push(
          datetime.endIsDay ? `${column} < julianday(?, '+1 day')` : `${column} <= julianday(?)`,
        );
        params.push(datetime.end);
      }
      if (datetime.start === null && datetime.end === null)
        where.push(`${q(datetime.column)} IS NOT NULL`);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const sql = `SELECT ${selectList(layer)} FROM ${q(layer.name)} ${clause} ORDER BY ${fid}`;
    const statement = file.db
      .prepare(bbox ? sql : `${sql} LIMIT ?`)
      .raw()
      .safeIntegers();
    const rows = (
      bbox ? statement.iterate(...params) : statement.iterate(...params, request.limit + 1)
    ) as Iterable<unknown[]>;
    const texts: string[] = [];
    let more = false;
    let last: unknown = null;
    for (const row of rows) {
      if (bbox) {
        const own = boxOf(row[1]);
        if (!own || !bbox.test(own)) continue;
      }
      if (texts.length === request.limit) {
        more = true;
        break;
      }
      texts.push(featureText(layer, row, request.crs));
      last = row[0];
    }
    return { features: texts.join(','), returned: texts.length, next: more ? Number(last) : null };
  });
}

/** One feature (GET …/items/{fid}). */
export function readItem(request: {
  file: string;
  layer: string;
  fid: number;
  crs: OutputCrs;
}): string {
  return readingFile(() => {
    const file = openFile(request.file);
    const layer = layerOf(file, request.layer);
    projection(layer, request.crs);
    const row = file.db
      .prepare(`SELECT ${selectList(layer)} FROM ${q(layer.name)} WHERE ${q(layer.fidColumn)} = ?`)
      .raw()
      .safeIntegers()
      .get(request.fid) as unknown[] | undefined;
    if (!row) throw notFound(featureNotFound(request.fid));
    return featureText(layer, row, request.crs);
  });
}

/** The first and last value of a date column, as the file holds them (null when none). */
export function readDateRange(request: {
  file: string;
  layer: string;
  column: string;
}): [string | null, string | null] {
  return readingFile(() => {
    const file = openFile(request.file);
    const layer = layerOf(file, request.layer);
    if (!layer.columns.some((c) => c.name === request.column)) return [null, null];
    const c = q(request.column);
    const row = file.db
      .prepare(
        `SELECT min(${c}), max(${c}) FROM ${q(layer.name)} WHERE julianday(${c}) IS NOT NULL`,
      )
      .raw()
      .get() as [unknown, unknown];
    const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
    return [text(row[0]), text(row[1])];
  });
}
