/** GET /app/project/{id}/access: the members of a project with their roles. */
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';
import { GET_ACCESS_FALLBACK, type ProjectMember } from '../model/collaborators';

export const COLLABORATORS_KEY = ['collaborators'] as const;

export const projectAccessQueryKey = (projectId: string) =>
  [...COLLABORATORS_KEY, projectId] as const;

export async function fetchProjectAccess(
  projectId: string,
  signal?: AbortSignal,
): Promise<ProjectMember[]> {
  const data = await api.get<ProjectMember[] | undefined>(
    `/app/project/${encodeURIComponent(projectId)}/access`,
    { signal, fallbackMessage: GET_ACCESS_FALLBACK },
  );
  return Array.isArray(data) ? data : [];
}

export const projectAccessQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: projectAccessQueryKey(projectId),
    queryFn: ({ signal }) => fetchProjectAccess(projectId, signal),
    staleTime: 10_000,
  });
