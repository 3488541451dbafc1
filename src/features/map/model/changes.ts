/**
 * The changes of a version on the map (issue 19, 'Show on map'): which kind of change each
 * feature had, per layer, for drawing it in its change's colour; the fids the table is
 * filtered to.
 */
import type { MapChanges, MapLayerChanges } from '@contract/map';
import type { ChangeKind } from './colours';

/** The change of a feature of a layer, or undefined when the version left it alone. */
export type ChangeLookup = (layer: string, fid: number) => ChangeKind | undefined;

export function changeLookup(changes: MapChanges): ChangeLookup {
  const byLayer = new Map<string, Map<number, ChangeKind>>();
  for (const layer of changes.layers) {
    const kinds = new Map<number, ChangeKind>();
    for (const fid of layer.inserted) kinds.set(fid, 'insert');
    for (const fid of layer.updated) kinds.set(fid, 'update');
    for (const fid of layer.deleted) kinds.set(fid, 'delete');
    byLayer.set(layer.layer, kinds);
  }
  return (layer, fid) => byLayer.get(layer)?.get(fid);
}

/** The fids of a layer's features that are in the version: inserted and updated. */
export const presentChangedFids = (layer: MapLayerChanges | undefined): number[] =>
  layer ? [...layer.inserted, ...layer.updated] : [];

/** How many features of a layer the version changed, by kind. */
export const changeCounts = (layer: MapLayerChanges | undefined): Record<ChangeKind, number> => ({
  insert: layer?.inserted.length ?? 0,
  update: layer?.updated.length ?? 0,
  delete: layer?.deleted.length ?? 0,
});
