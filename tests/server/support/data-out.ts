/**
 * The GeoPackage of the data-out tests (exports, OGC API - Features, view links; issue 32):
 * trees (points in EPSG:4326 with an rtree, a date column), parks (polygons, one wound
 * clockwise, one with a hole), plots (points in EPSG:2180, one without geometry) and notes
 * (values that must be escaped where they land). v2 renames a tree, removes one and plants
 * another.
 */
import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { writeGeoPackage, type TestLayer } from './map-geopackage';

/** A plot at easting 600000, northing 400000 of EPSG:2180: 20.43979°E 51.45773°N. */
export const PLOT = { x: 600000, y: 400000, lon: 20.4397924382154, lat: 51.45772891197599 };

export const TREE_ROWS: TestLayer['rows'] = [
  {
    fid: 1,
    geometry: { point: [-0.1276, 51.5072] },
    values: { name: 'london plane', height: 21.5, planted: '1990-04-01', healthy: 1 },
  },
  {
    fid: 2,
    geometry: { point: [2.3522, 48.8566] },
    values: { name: 'paris lime', height: 12, planted: '2001-06-15', healthy: 0 },
  },
  {
    fid: 3,
    geometry: { point: [13.405, 52.52] },
    values: { name: 'berlin oak', height: 30.25, planted: '2015-09-30' },
  },
];

export const trees = (v2: boolean): TestLayer => ({
  name: 'trees',
  srsId: 4326,
  type: 'POINT',
  rtree: true,
  columns: { name: 'TEXT', height: 'REAL', planted: 'DATE', healthy: 'BOOLEAN' },
  rows: v2
    ? [
        { ...TREE_ROWS[0]!, values: { ...TREE_ROWS[0]!.values, name: 'old plane' } },
        TREE_ROWS[1]!,
        {
          fid: 4,
          geometry: { point: [21.0122, 52.2297] },
          values: { name: 'warsaw elm', planted: '2020-03-01' },
        },
      ]
    : TREE_ROWS,
});

export const parks: TestLayer = {
  name: 'parks',
  srsId: 4326,
  type: 'POLYGON',
  rtree: true,
  columns: { name: 'TEXT' },
  rows: [
    {
      // Clockwise: an export winds it the other way (RFC 7946).
      fid: 7,
      geometry: {
        polygon: [
          [
            [-0.19, 51.5],
            [-0.19, 51.52],
            [-0.15, 51.52],
            [-0.15, 51.5],
            [-0.19, 51.5],
          ],
        ],
      },
      values: { name: 'Hyde Park' },
    },
    {
      fid: 8,
      geometry: {
        polygon: [
          [
            [2.2, 48.8],
            [2.3, 48.8],
            [2.3, 48.9],
            [2.2, 48.9],
            [2.2, 48.8],
          ],
          [
            [2.24, 48.84],
            [2.24, 48.86],
            [2.26, 48.86],
            [2.26, 48.84],
            [2.24, 48.84],
          ],
        ],
      },
      values: { name: 'Bois with a hole' },
    },
  ],
};

export const plots: TestLayer = {
  name: 'plots',
  srsId: 2180,
  type: 'POINT',
  rtree: true,
  columns: { code: 'TEXT', area: 'INTEGER' },
  rows: [
    { fid: 10, geometry: { point: [PLOT.x, PLOT.y] }, values: { code: 'PL-10', area: 1200 } },
    { fid: 11, geometry: null, values: { code: 'PL-11', area: 90 } },
    {
      fid: 12,
      geometry: { point: [PLOT.x + 1000, PLOT.y + 500] },
      values: { code: 'PL-12', area: -40 },
    },
  ],
};

/** Values a spreadsheet, a web page or an XML reader must not run or break on. */
export const NOTE_TEXTS = [
  '=HYPERLINK("http://evil.example","click")',
  '+1+2',
  '-5',
  '@SUM(A1)',
  '<script>alert("x")</script> & \'quotes\'',
  'comma, "quoted"\nand a new line',
  'control \u0001 character',
  'zażółć gęślą jaźń',
];

export const notes: TestLayer = {
  name: 'notes',
  srsId: 4326,
  type: 'POINT',
  rtree: true,
  columns: { text: 'TEXT', big: 'INTEGER' },
  rows: NOTE_TEXTS.map((text, i) => ({
    fid: i + 1,
    geometry: { point: [10 + i / 10, 45] },
    values: { text, big: i === 0 ? 9007199254740993n : -i },
  })),
};

let written = 0;

/** Writes the GeoPackage of a version into `dir`; its bytes. */
export async function dataOutGeoPackage(dir: string, v2: boolean): Promise<Buffer> {
  const file = path.join(dir, `data-out-${v2 ? 'v2' : 'v1'}-${++written}.gpkg`);
  writeGeoPackage(file, [trees(v2), parks, plots, notes]);
  return readFile(file);
}
