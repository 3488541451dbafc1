/**
 * GET /v1/project/download/{namespace}/{name}?format=zip: the whole project as a zip, at its
 * latest version or at `version` (vN).
 */
import { api } from '@/api';

export function projectArchiveUrl(namespace: string, name: string, version?: string): string {
  return api.url(
    `/v1/project/download/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`,
    { format: 'zip', version },
  );
}
