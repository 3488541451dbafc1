/** Marks a map layer whose features a click may pick (the queued edits' layer, mapEditing.ts). */
export const PICKABLE = 'waymark:pickable';
