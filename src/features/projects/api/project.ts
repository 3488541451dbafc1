/**
 * GET /v1/project/{namespace}/{name}: one project with its files. A 403 for a logged-in user
 * becomes a 409 when the user already has a pending access request (spec 001 §4).
 */
import type { ProjectDetail } from '@contract/projects';
import { versionNumber } from '@contract/protocol';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { ApiError, api, isApiError } from '@/api';
import { stableKey } from '@/offline/offlineCache';
import { withOfflineCopy } from '@/offline/instance';
import { LOAD_PROJECT_FALLBACK, PROJECT_KEY } from '../model/project';
import { hasPendingAccessRequest } from './pendingAccessRequest';

export function projectPath(namespace: string, name: string): string {
  return `/v1/project/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

export async function fetchProject(
  namespace: string,
  name: string,
  loggedIn: boolean,
  signal?: AbortSignal,
): Promise<ProjectDetail> {
  try {
    // Saved for offline use: offline, the project opens as it was last seen here.
    return await withOfflineCopy(stableKey('project', namespace, name), async () => {
      return api.get<ProjectDetail>(projectPath(namespace, name), {
        signal,
        fallbackMessage: LOAD_PROJECT_FALLBACK,
      });
    });
  } catch (error) {
    if (loggedIn && isApiError(error) && error.status === 403) {
      const pending = await hasPendingAccessRequest(namespace, name, signal).catch(() => false);
      if (pending) throw new ApiError({ status: 409, message: error.message, data: error.data });
    }
    throw error;
  }
}

export const projectQueryKey = (namespace: string, name: string) =>
  [...PROJECT_KEY, namespace, name] as const;

export const projectQueryOptions = (namespace: string, name: string, loggedIn: boolean) =>
  queryOptions({
    queryKey: [...projectQueryKey(namespace, name), loggedIn] as const,
    queryFn: ({ signal }) => fetchProject(namespace, name, loggedIn, signal),
    staleTime: 30_000,
    networkMode: 'always',
    // The view shows its own failure screens.
    meta: { silent: true },
  });

/**
 * A new version of the project landed (an upload's answer, `landed`): every cached copy of the
 * project shows it at once (the files, the version), and the project and the project lists
 * (which show its version: the projects pages, the dashboard) are read again. Wrapped by the
 * caller in `notifyManager.batch` to land in the same render as what it clears.
 */
export function showLandedVersion(
  queryClient: QueryClient,
  namespace: string,
  name: string,
  landed?: ProjectDetail,
): void {
  if (landed) {
    queryClient.setQueriesData<ProjectDetail>(
      { queryKey: projectQueryKey(namespace, name) },
      (old) =>
        old && versionNumber(landed.version) > versionNumber(old.version)
          ? { ...old, ...landed }
          : old,
    );
  }
  void queryClient.invalidateQueries({ queryKey: projectQueryKey(namespace, name) });
  void queryClient.invalidateQueries({ queryKey: ['projects', 'paginated'] });
}
