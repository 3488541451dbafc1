/** GET /app/project/access-requests filtered by project: whether the user already asked for access. */
import { api } from '@/api';

interface RequestItem {
  namespace?: string;
  project_name?: string;
}

export async function hasPendingAccessRequest(
  namespace: string,
  name: string,
  signal?: AbortSignal,
): Promise<boolean> {
  const data = await api.get<{ items?: RequestItem[] } | undefined>(
    '/app/project/access-requests',
    { query: { page: 1, per_page: 100, project_name: name }, signal },
  );
  return (data?.items ?? []).some(
    (item) => item.namespace === namespace && item.project_name === name,
  );
}
