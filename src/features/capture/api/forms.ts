/**
 * The form description of a project's layers (GET /app/map/{namespace}/{name}/forms, schemas
 * forms.ts), at the version the map shows. Under the map's routes, so the service worker keeps
 * it with the map's answers for offline use (src/sw/mapData.ts): a layer whose map was seen
 * can be edited offline.
 */
import { queryOptions } from '@tanstack/react-query';
import type { ProjectForms } from '@contract/forms';
import { api } from '@/api';

export const LOAD_FORMS_FALLBACK = 'Failed to load the forms';

export interface FormsSource {
  namespace: string;
  projectName: string;
  /** The version shown (`vN`). */
  version: string;
}

export const formsPath = ({ namespace, projectName }: Omit<FormsSource, 'version'>) =>
  `/app/map/${encodeURIComponent(namespace)}/${encodeURIComponent(projectName)}/forms`;

export const formsQueryOptions = (source: FormsSource) =>
  queryOptions({
    queryKey: ['map', source.namespace, source.projectName, 'forms', source.version] as const,
    queryFn: ({ signal }) =>
      api.get<ProjectForms>(formsPath(source), {
        query: { version: source.version },
        signal,
        fallbackMessage: LOAD_FORMS_FALLBACK,
      }),
    // When a new version of the project lands (a save of this device sent), the last
    // version's forms stay until the new one's are read: without them 'Edit' and 'Add
    // feature' did nothing for that moment (a keyboard user's Enter on 'Edit' was lost).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === source.namespace &&
      previousQuery.queryKey[2] === source.projectName
        ? previous
        : undefined,
    staleTime: 30_000,
    networkMode: 'always',
    meta: { silent: true },
  });
