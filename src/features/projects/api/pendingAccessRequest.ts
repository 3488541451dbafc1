/** GET /app/project/access-requests filtered by project: whether the user already asked for access. */
import type { AccessRequestList } from '@contract/access-requests';
import { api } from '@/api';

export async function hasPendingAccessRequest(
  namespace: string,
  name: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const data = await api.get<AccessRequestList>('/app/project/access-requests', {
    query: { page: 1, per_page: 100, project_name: name },
    signal,
  });
  return data.items.some((item) => item.namespace === namespace && item.project_name === name);
}
