/**
 * The text formats of an export, each written row by row to a FileSink: GeoJSON (RFC 7946,
 * lon/lat), CSV (the layer's own CRS, geometry as WKT, X and Y of points) and KML (lon/lat).
 * Rows come as `[fid, geometry blob, ...attributes]` (features.ts selectList).
 */
import { geometryToWkt } from '../../lib/gpkg-geometry';
import { decodeGeometry, toGeoJson } from '../map/geometry';
import type { LayerInfo } from '../map/gpkg';
import { cellOf, jsonCell, textCell } from './cells';
import { BOM, CRLF, csvCell, csvField, freeName } from './csv';
import { kmlGeometry, rightHandRule } from './geometry';
import type { FileSink } from './sink';
import { xmlText } from './xml';

export type Rows = Iterable<unknown[]>;

/** Requires the layer's transform to lon/lat (GeoJSON and KML). */
type Drawable = LayerInfo & { transform: NonNullable<LayerInfo['transform']> };

function lonLatGeometry(layer: Drawable, blob: unknown) {
  const wkb = decodeGeometry(blob);
  return wkb ? toGeoJson(wkb, layer.transform.toLonLat) : null;
}

/**
 * A geometry as RFC 7946 GeoJSON text in lon/lat, 'null' when nothing of it can be drawn. A
 * point, the commonest feature, is written directly (the same text as JSON.stringify of
 * toGeoJson's answer, without the objects in between).
 */
function lonLatGeometryText(layer: Drawable, blob: unknown): string {
  const wkb = decodeGeometry(blob);
  if (!wkb) return 'null';
  if (wkb.type === 'POINT' && wkb.points?.length === 1) {
    const [x, y] = wkb.points[0]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return 'null';
    const [lon, lat] = layer.transform.toLonLat(x!, y!);
    if (!Number.isFinite(lon) || !Number.isFinite(lat)) return 'null';
    return `{"type":"Point","coordinates":[${lon},${lat}]}`;
  }
  const geometry = toGeoJson(wkb, layer.transform.toLonLat);
  return geometry ? JSON.stringify(rightHandRule(geometry)) : 'null';
}

/** RFC 7946 FeatureCollection; returns the number of features. */
export function writeGeoJson(sink: FileSink, layer: Drawable, rows: Rows): number {
  const keys = layer.columns.map((column) => `${JSON.stringify(column.name)}:`);
  sink.write(`{"type":"FeatureCollection","name":${JSON.stringify(layer.name)},"features":[`);
  let count = 0;
  for (const [fid, blob, ...values] of rows) {
    let properties = '';
    for (let i = 0; i < keys.length; i++) {
      properties += `${i > 0 ? ',' : ''}${keys[i]}${jsonCell(cellOf(values[i], layer.columns[i]!))}`;
    }
    sink.write(
      `${count > 0 ? ',\n' : '\n'}{"type":"Feature","id":${jsonCell(cellOf(fid, { type: 'integer' }))},"geometry":${lonLatGeometryText(
        layer,
        blob,
      )},"properties":{${properties}}}`,
    );
    count++;
  }
  sink.write('\n]}\n');
  return count;
}

const isPointLayer = (layer: LayerInfo) => layer.geometryType === 'POINT';

/** CSV with a header; returns the number of features. */
export function writeCsv(sink: FileSink, layer: LayerInfo, rows: Rows): number {
  const taken = new Set(
    [layer.fidColumn, ...layer.columns.map((c) => c.name)].map((n) => n.toLowerCase()),
  );
  const points = isPointLayer(layer);
  const header = [
    freeName('WKT', taken),
    ...(points ? [freeName('X', taken), freeName('Y', taken)] : []),
    layer.fidColumn === 'rowid' ? freeName('fid', taken) : layer.fidColumn,
    ...layer.columns.map((c) => c.name),
  ];
  sink.write(`${BOM}${header.map((name) => csvField(name)).join(',')}${CRLF}`);
  let count = 0;
  for (const [fid, blob, ...values] of rows) {
    const wkb = decodeGeometry(blob);
    let line = wkb ? csvField(geometryToWkt(wkb)) : '';
    if (points) {
      const point = wkb?.type === 'POINT' ? wkb.points?.[0] : undefined;
      const valid = point !== undefined && Number.isFinite(point[0]) && Number.isFinite(point[1]);
      line += valid ? `,${point[0]},${point[1]}` : ',,';
    }
    line += `,${textCell(cellOf(fid, { type: 'integer' }))}`;
    for (let i = 0; i < layer.columns.length; i++) {
      line += `,${csvCell(cellOf(values[i], layer.columns[i]!))}`;
    }
    sink.write(line + CRLF);
    count++;
  }
  return count;
}

const KML_TYPES: Partial<Record<string, string>> = {
  integer: 'int',
  double: 'double',
  boolean: 'bool',
};

/** An XML ID (NCName) made of a name. */
function xmlId(name: string): string {
  const id = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(id) ? id : `_${id}`;
}

/** KML 2.2 with a Schema of the attributes; returns the number of features. */
export function writeKml(sink: FileSink, layer: Drawable, rows: Rows): number {
  const schema = xmlId(layer.name);
  const fidName = layer.fidColumn === 'rowid' ? 'fid' : layer.fidColumn;
  const fields = [
    { name: fidName, type: 'int' },
    ...layer.columns.map((c) => ({ name: c.name, type: KML_TYPES[c.type] ?? 'string' })),
  ];
  sink.write(
    `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document>\n<Schema name="${xmlText(
      layer.name,
    )}" id="${schema}">\n${fields
      .map((f) => `<SimpleField name="${xmlText(f.name)}" type="${f.type}"></SimpleField>\n`)
      .join('')}</Schema>\n<Folder><name>${xmlText(layer.name)}</name>\n`,
  );
  const names = fields.map((f) => `<SimpleData name="${xmlText(f.name)}">`);
  let count = 0;
  for (const [fid, blob, ...values] of rows) {
    const geometry = lonLatGeometry(layer, blob);
    let data = `${names[0]}${textCell(cellOf(fid, { type: 'integer' }))}</SimpleData>`;
    for (let i = 0; i < layer.columns.length; i++) {
      const cell = cellOf(values[i], layer.columns[i]!);
      if (cell !== null) data += `${names[i + 1]}${xmlText(textCell(cell))}</SimpleData>`;
    }
    sink.write(
      `<Placemark><ExtendedData><SchemaData schemaUrl="#${schema}">${data}</SchemaData></ExtendedData>${
        geometry ? kmlGeometry(geometry) : ''
      }</Placemark>\n`,
    );
    count++;
  }
  sink.write('</Folder>\n</Document>\n</kml>\n');
  return count;
}
