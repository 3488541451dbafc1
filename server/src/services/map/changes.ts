/**
 * A version's changes of one GeoPackage for the map: the fids inserted, updated and deleted
 * per layer, from the row-level changeset the server computed (services/changesets.ts), and
 * the deleted features' former geometry and attributes from the file before the version.
 */
import type { ChangesetEntry } from '../../schemas/changesets';
import type { MapFile } from './store';
import type { MapChanges, MapDeletedFeature, MapLayer, MapLayerChanges } from '../../schemas/map';

/** Most deleted features sent with their geometry per layer (the fids are all listed). */
export const MAX_DELETED_FEATURES = 5000;

function fidOf(entry: ChangesetEntry, layer: MapLayer): number | null {
  const change = entry.changes.find((c) => c.name === layer.fid_column);
  const raw = change?.new ?? change?.old;
  const fid = Number(raw);
  return raw !== undefined && raw !== null && Number.isSafeInteger(fid) ? fid : null;
}

/**
 * The changes of `entries` (a changeset's JSON list) on the layers of `after` (the file at
 * the version) and `before` (the file at the version before), with the deleted features
 * read from `before` by `deleted`.
 */
export async function layerChanges(
  entries: ChangesetEntry[],
  truncated: boolean,
  files: { after: MapFile; before: MapFile | null },
  names: { file: string; version: string },
  deleted: (layer: string, fids: number[]) => Promise<MapDeletedFeature[]>,
): Promise<MapChanges> {
  const byLayer = new Map<string, MapLayerChanges>();
  for (const entry of entries) {
    const layer = files.after.layers.get(entry.table) ?? files.before?.layers.get(entry.table);
    if (!layer) continue;
    const fid = fidOf(entry, layer);
    if (fid === null) continue;
    let changes = byLayer.get(layer.name);
    if (!changes) {
      changes = { layer: layer.name, inserted: [], updated: [], deleted: [], deleted_features: [] };
      byLayer.set(layer.name, changes);
    }
    const list =
      entry.type === 'insert'
        ? changes.inserted
        : entry.type === 'update'
          ? changes.updated
          : changes.deleted;
    list.push(fid);
  }
  for (const changes of byLayer.values()) {
    const old = files.before?.layers.get(changes.layer);
    if (!old || changes.deleted.length === 0) continue;
    changes.deleted_features = await deleted(
      old.name,
      changes.deleted.slice(0, MAX_DELETED_FEATURES),
    );
  }
  return {
    file: names.file,
    version: names.version,
    layers: [...byLayer.values()].sort((a, b) => a.layer.localeCompare(b.layer)),
    truncated,
  };
}
