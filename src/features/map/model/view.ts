/** The map view as the `view` search param writes it (see search.ts). */
import type { MapView } from './search';

/** The view as the link writes it (6 decimals: ~10 cm; zoom to 2). */
export const formatView = ({ lon, lat, zoom }: MapView): string =>
  `${+lon.toFixed(6)},${+lat.toFixed(6)},${+zoom.toFixed(2)}`;
