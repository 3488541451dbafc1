/** Which layers are visible, as the `layers` search param says (see search.ts). */
/** The visible layers of `layers` (undefined: all of `all`). */
export const visibleLayers = (layers: string | undefined, all: readonly string[]): string[] =>
  layers === undefined ? [...all] : all.filter((name) => layers.split(',').includes(name));

/** The `layers` param for the visible layers: absent when all are visible. */
export const layersParam = (visible: readonly string[], all: readonly string[]) =>
  all.every((name) => visible.includes(name)) ? undefined : visible.join(',');
