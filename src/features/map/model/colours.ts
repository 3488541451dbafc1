/**
 * Colours of the map (issue 19): each layer its own colour from a palette that reads on light
 * basemaps and on none; the changes of a version in three colours that say what happened.
 */

/** What happened to a feature in a version (the changeset's operations). */
export type ChangeKind = 'insert' | 'update' | 'delete';

/** Inserted green, updated orange, deleted red: the colours of the history's change icons. */
export const CHANGE_COLOURS: Record<ChangeKind, string> = {
  insert: '#2f9e44',
  update: '#f08c00',
  delete: '#e03131',
};

/** Labels of the legend and the table's filter. */
export const CHANGE_LABELS: Record<ChangeKind, string> = {
  insert: 'Inserted',
  update: 'Updated',
  delete: 'Deleted',
};

const PALETTE = ['#1c7ed6', '#7048e8', '#0c8599', '#d6336c', '#5c940d', '#e8590c', '#495057'];

/** The colour of the layer at `index` in the layer list (repeats after the palette's end). */
export function layerColour(index: number): string {
  const at = ((Math.trunc(index) % PALETTE.length) + PALETTE.length) % PALETTE.length;
  return PALETTE[at] ?? '#1c7ed6';
}

/** The colour of a feature: its change's colour when the version changed it, else its layer's. */
export function featureColour(layerIndex: number, change: ChangeKind | undefined): string {
  return change ? CHANGE_COLOURS[change] : layerColour(layerIndex);
}

/** `#rrggbb` with an alpha (0-1) as `rgba(...)`, for polygon fills. */
export function withAlpha(hex: string, alpha: number): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(value >> 16) & 255}, ${(value >> 8) & 255}, ${value & 255}, ${alpha})`;
}
