// A project with the map e2e tests' GeoPackage (issue 19), and where a place is on the map.
import type { Locator } from '@playwright/test';
import { apiSession, createProject } from './api';
import { mapGeoPackage, type MapData } from './map-geopackage';
import { pushFiles } from './push';

export const MAP_FILE = 'survey.gpkg';

/**
 * The admin creates project `name` in 'waymark' with survey.gpkg pushed once per version's data
 * (`versions`: v1, v2, …); the pushes' answers.
 */
export async function seedMapProject(
  name: string,
  { isPublic, versions, baseURL }: { isPublic: boolean; versions: MapData[]; baseURL?: string },
) {
  const admin = await apiSession(undefined, baseURL);
  try {
    await createProject(admin, 'waymark', name, isPublic);
    const pushed = [];
    for (const data of versions) {
      pushed.push(
        await pushFiles(admin, 'waymark', name, { files: { [MAP_FILE]: mapGeoPackage(data) } }),
      );
    }
    return pushed;
  } finally {
    await admin.dispose();
  }
}

/** A map view as the link writes it. */
export interface LinkView {
  lon: number;
  lat: number;
  zoom: number;
}

/** The view in a page's link (`view=lon,lat,zoom`), or null. */
export function linkView(url: string): LinkView | null {
  const parts = new URL(url).searchParams.get('view')?.split(',').map(Number);
  if (parts?.length !== 3) return null;
  const [lon, lat, zoom] = parts as [number, number, number];
  return { lon, lat, zoom };
}

const R = 6378137;
/**
 * Where lon/lat is on the page, for the map's view: its center is the middle of the map
 * element, and a zoom's resolution is Web Mercator's.
 */
export async function pixelOf(
  map: Locator,
  view: LinkView,
  [lon, lat]: readonly [number, number],
): Promise<{ x: number; y: number }> {
  const box = await map.boundingBox();
  if (!box) throw new Error('the map is not shown');
  const mercator = (lo: number, la: number) => [
    (R * lo * Math.PI) / 180,
    R * Math.log(Math.tan(Math.PI / 4 + (la * Math.PI) / 360)),
  ];
  const resolution = (2 * Math.PI * R) / 256 / 2 ** view.zoom;
  const [cx, cy] = mercator(view.lon, view.lat) as [number, number];
  const [x, y] = mercator(lon, lat) as [number, number];
  return {
    x: box.x + box.width / 2 + (x - cx) / resolution,
    y: box.y + box.height / 2 - (y - cy) / resolution,
  };
}
