/** GET /app/project/{id}/access: the members of a project with their roles. */
import { queryOptions } from '@tanstack/react-query';
import type { MemberList } from '@contract/collaborators';
import { api } from '@/api';
import { GET_ACCESS_FALLBACK } from '../model/collaborators';

export const COLLABORATORS_KEY = ['collaborators'] as const;

export const projectAccessQueryKey = (projectId: string) =>
  [...COLLABORATORS_KEY, projectId] as const;

export async function fetchProjectAccess(
  projectId: string,
  signal?: AbortSignal,
): Promise<MemberList> {
  return api.get<MemberList>(`/app/project/${encodeURIComponent(projectId)}/access`, {
    signal,
    fallbackMessage: GET_ACCESS_FALLBACK,
  });
}

export const projectAccessQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: projectAccessQueryKey(projectId),
    queryFn: ({ signal }) => fetchProjectAccess(projectId, signal),
    staleTime: 10_000,
  });
