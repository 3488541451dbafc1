/**
 * GeoPackages that attack the server that reads them (issue 29): valid files whose reading
 * never ends, needs more memory than a server has, or takes seconds per tile. Each starts as
 * a plain GeoPackage (map-geopackage.ts) with a point layer `trees`.
 */
import Database from 'better-sqlite3';
import { gridPoints, writeGeoPackage, type Ring } from './map-geopackage';

/** A query that never ends. */
export const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)';

function base(file: string): void {
  writeGeoPackage(file, [
    {
      name: 'trees',
      srsId: 4326,
      type: 'POINT',
      rtree: true,
      columns: { name: 'TEXT' },
      rows: gridPoints(20, [14, 49, 15, 50]),
    },
  ]);
}

function edit(file: string, sql: string): void {
  const db = new Database(file);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** A view without end registered as a feature layer (the 28 KB file). */
export function recursiveViewLayer(file: string): void {
  base(file);
  edit(
    file,
    `CREATE VIEW forever AS ${ENDLESS} SELECT x AS fid, NULL AS geom FROM c;
     INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id)
       VALUES ('forever', 'features', 'forever', 4326);
     INSERT INTO gpkg_geometry_columns VALUES ('forever', 'geom', 'POINT', 4326, 0, 0);
     CREATE TABLE keyless (code TEXT PRIMARY KEY, geom POINT) WITHOUT ROWID;
     INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id)
       VALUES ('keyless', 'features', 'keyless', 4326);
     INSERT INTO gpkg_geometry_columns VALUES ('keyless', 'geom', 'POINT', 4326, 0, 0);`,
  );
}

/** gpkg_geometry_columns itself a view without end: listing the layers never ends. */
export function endlessMetadata(file: string): void {
  base(file);
  edit(
    file,
    `DROP TABLE gpkg_geometry_columns;
     CREATE VIEW gpkg_geometry_columns AS ${ENDLESS}
       SELECT 'trees' AS table_name, 'geom' AS column_name, 'POINT' AS geometry_type_name,
              4326 AS srs_id, 0 AS z, 0 AS m FROM c;`,
  );
}

/** gpkg_geometry_columns a view building one string of gigabytes. */
export function hungryMetadata(file: string): void {
  base(file);
  edit(
    file,
    `DROP TABLE gpkg_geometry_columns;
     CREATE VIEW gpkg_geometry_columns AS
       WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000000)
       SELECT group_concat(printf('%01000d', x)) AS table_name, 'geom' AS column_name,
              'POINT' AS geometry_type_name, 4326 AS srs_id, 0 AS z, 0 AS m FROM c;`,
  );
}

/** A polygon layer `coast` holding one ring of `vertices` vertices (a second per tile). */
export function hugePolygon(file: string, vertices: number): void {
  const ring: Ring = Array.from({ length: vertices }, (_, i) => {
    const a = (2 * Math.PI * i) / vertices;
    const wobble = 0.01 * Math.sin(i * 0.7);
    return [14.5 + (0.4 + wobble) * Math.cos(a), 49.5 + (0.4 + wobble) * Math.sin(a)];
  });
  ring.push(ring[0]!);
  writeGeoPackage(file, [
    {
      name: 'coast',
      srsId: 4326,
      type: 'POLYGON',
      rtree: true,
      columns: { name: 'TEXT' },
      rows: [{ fid: 1, geometry: { polygon: [ring] }, values: { name: 'coast' } }],
    },
  ]);
}

/**
 * A trigger that never ends, fired by any update of `trees`, named as GeoPackage's own R-tree
 * triggers are (applying a diff keeps those).
 */
export function endlessTrigger(file: string): void {
  base(file);
  edit(
    file,
    `CREATE TRIGGER rtree_trees_geom_forever AFTER UPDATE ON trees
       BEGIN SELECT count(*) FROM (${ENDLESS} SELECT x FROM c); END;`,
  );
}
