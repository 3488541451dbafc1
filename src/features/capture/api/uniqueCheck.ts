/**
 * Whether another feature of a layer holds a value (a QGIS unique constraint, issue 34): the
 * map's attribute rows filtered by the value's text, compared exactly. Online only; the queue's
 * own features are checked by the form's caller.
 */
import type { MapFeaturePage } from '@contract/map';
import { api } from '@/api';
import type { EditValue } from '@/db/editQueue';

export interface LayerSource {
  namespace: string;
  projectName: string;
  file: string;
  version: string;
}

export async function valueTaken(
  source: LayerSource,
  layer: string,
  column: string,
  value: EditValue,
  exceptFid: number | null,
): Promise<boolean> {
  if (value === null || value === '') return false;
  const page = await api.get<MapFeaturePage>(
    `/app/map/${encodeURIComponent(source.namespace)}/${encodeURIComponent(source.projectName)}/features/${encodeURIComponent(layer)}`,
    {
      query: {
        file: source.file,
        version: source.version,
        filter: String(value).slice(0, 200),
        per_page: 100,
      },
    },
  );
  return page.features.some(
    (feature) => feature.fid !== exceptFid && feature.properties[column] === value,
  );
}
