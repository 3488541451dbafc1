/** GET /app/project/templates: the community template projects (spec 001 §1, §7). */
import type { TemplateList } from '@contract/projects';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/api';

export const FETCH_TEMPLATES_FALLBACK = 'Failed to load templates';

export async function fetchTemplates(signal?: AbortSignal): Promise<TemplateList> {
  return api.get<TemplateList>('/app/project/templates', {
    signal,
    fallbackMessage: FETCH_TEMPLATES_FALLBACK,
  });
}

export const templatesQueryOptions = () =>
  queryOptions({
    queryKey: ['projects', 'templates'] as const,
    queryFn: ({ signal }) => fetchTemplates(signal),
    staleTime: 5 * 60_000,
    // Without the list the banner and the choice simply do not show: no error toast.
    meta: { silent: true },
  });
