// Row-level changeset of a GeoPackage layer of 100,000 point features in which 1 % of the rows
// changed (334 inserted, 333 updated, 333 deleted), against reading every row of both
// versions once with better-sqlite3 (same files, same run). Both versions are made by GDAL's
// ogr2ogr (Debian's gdal-bin) from GeoJSON. Target: changeset ≤ 3× the reading.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { diffSqliteFiles } from '../server/src/lib/sqlite-diff';
import { measure, report, type BenchResult } from './harness';

const run = promisify(execFile);
const OGR2OGR = process.env.OGR2OGR ?? '/usr/bin/ogr2ogr';
const FEATURES = 100_000;
const INSERTED = 334;
const UPDATED = 333;
const DELETED = 333;

export interface Feature {
  id: number;
  name: string;
  height: number;
  x: number;
  y: number;
}

export function feature(id: number): Feature {
  return { id, name: `tree ${id}`, height: (id % 400) / 10, x: (id % 1000) / 100, y: id / 10000 };
}

/** A GeoPackage with one layer `trees` of the features (ogr2ogr); its path. */
export async function geopackage(dir: string, name: string, features: Feature[]): Promise<string> {
  const source = join(dir, `${name}.geojson`);
  const target = join(dir, `${name}.gpkg`);
  await writeFile(
    source,
    JSON.stringify({
      type: 'FeatureCollection',
      features: features.map((f) => ({
        type: 'Feature',
        id: f.id,
        properties: { name: f.name, height: f.height },
        geometry: { type: 'Point', coordinates: [f.x, f.y] },
      })),
    }),
  );
  await run(OGR2OGR, ['-f', 'GPKG', target, source, '-nln', 'trees', '-preserve_fid']);
  await rm(source);
  return target;
}

/** Reads every row of the layer once (the baseline). */
function readAll(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    let cells = 0;
    for (const row of db.prepare('SELECT * FROM trees').raw(true).iterate() as Iterable<
      unknown[]
    >) {
      cells += row.length;
    }
    return cells;
  } finally {
    db.close();
  }
}

export async function benchChangeset(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'waymark-bench-changeset-'));
  try {
    const before = Array.from({ length: FEATURES }, (_, i) => feature(i + 1));
    // Deleted: every 300th row; updated: the rows after them (name or position); inserted:
    // new ids after the last.
    const deleted = new Set(Array.from({ length: DELETED }, (_, i) => (i + 1) * 300));
    const after: Feature[] = [];
    let updated = 0;
    for (const f of before) {
      if (deleted.has(f.id)) continue;
      if (deleted.has(f.id - 1) && updated < UPDATED) {
        updated++;
        after.push(updated % 2 ? { ...f, name: `${f.name} (checked)` } : { ...f, x: f.x + 0.5 });
      } else {
        after.push(f);
      }
    }
    for (let i = 1; i <= INSERTED; i++) after.push(feature(FEATURES + i));
    const oldFile = await geopackage(dir, 'v1', before);
    const newFile = await geopackage(dir, 'v2', after);

    const check = await diffSqliteFiles(oldFile, newFile);
    const trees = check.summary.find((row) => row.table === 'trees');
    if (
      trees?.insert !== INSERTED ||
      trees.update !== UPDATED ||
      trees.delete !== DELETED ||
      check.truncated
    ) {
      throw new Error(`unexpected changeset summary ${JSON.stringify(check.summary)}`);
    }

    const result = await measure(
      'changeset of a 100,000-feature layer with 1 % changed vs reading both versions',
      async () => {
        readAll(oldFile);
        readAll(newFile);
      },
      async () => {
        await diffSqliteFiles(oldFile, newFile);
      },
      3,
    );
    return [result];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  report(await benchChangeset());
}
