/**
 * The data-out routes (issue 32): a layer's export (server/src/schemas/export.ts, a download
 * by link: the browser streams it to disk) and read-only view links
 * (server/src/schemas/view-links.ts).
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ExportQuery } from '@contract/export';
import type { MapFeatureQuery } from '@contract/map';
import type { CreateViewLink, ViewLink, ViewLinkList, ViewLinkOpen } from '@contract/view-links';
import { api } from '@/api';
import type { ExportFormatName } from '../model/dataOut';
import type { MapSource } from './map';

export const LOAD_VIEW_LINKS_FALLBACK = 'Failed to load the view links';
export const CREATE_VIEW_LINK_FALLBACK = 'Failed to create the view link';
export const REVOKE_VIEW_LINK_FALLBACK = 'Failed to revoke the view link';
export const OPEN_VIEW_LINK_FALLBACK = 'Failed to open the view link';

const enc = encodeURIComponent;

/** The rows an export takes: the table's filter, sort and fids; none for all rows. */
export type ExportRows = Pick<MapFeatureQuery, 'filter' | 'sort' | 'order' | 'fids'>;

/** The address of a layer's export (an attachment: a link downloads it). */
export function exportUrl(
  source: MapSource,
  layer: string,
  format: ExportFormatName,
  rows: ExportRows = {},
): string {
  const query: ExportQuery = {
    file: source.file,
    version: source.version,
    format,
    filter: rows.filter || undefined,
    sort: rows.sort,
    order: rows.sort ? rows.order : undefined,
    fids: rows.fids,
  };
  return api.url(
    `/app/export/${enc(source.namespace)}/${enc(source.projectName)}/${enc(layer)}`,
    query,
  );
}

const linksPath = (namespace: string, name: string) =>
  `/app/project/view-links/${enc(namespace)}/${enc(name)}`;

const viewLinksKey = (namespace: string, name: string) => ['view-links', namespace, name] as const;

export const viewLinksQueryOptions = (namespace: string, name: string) =>
  queryOptions({
    queryKey: viewLinksKey(namespace, name),
    queryFn: ({ signal }) =>
      api.get<ViewLinkList>(linksPath(namespace, name), {
        signal,
        fallbackMessage: LOAD_VIEW_LINKS_FALLBACK,
      }),
    meta: { silent: true },
  });

export function useCreateViewLinkMutation(namespace: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['view-links', 'create'],
    mutationFn: (body: CreateViewLink) =>
      api.post<ViewLink>(linksPath(namespace, name), body, {
        fallbackMessage: CREATE_VIEW_LINK_FALLBACK,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: viewLinksKey(namespace, name) }),
  });
}

export function useRevokeViewLinkMutation(namespace: string, name: string) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['view-links', 'revoke'],
    mutationFn: (id: number) =>
      api.delete(`${linksPath(namespace, name)}/${id}`, {
        fallbackMessage: REVOKE_VIEW_LINK_FALLBACK,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: viewLinksKey(namespace, name) }),
  });
}

/** GET /app/view/{token}: the project a view link opens (each call is a logged use). */
export const viewLinkOpenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['view-link', token] as const,
    queryFn: ({ signal }) =>
      api.get<ViewLinkOpen>(`/app/view/${enc(token)}`, {
        signal,
        fallbackMessage: OPEN_VIEW_LINK_FALLBACK,
      }),
    staleTime: Infinity,
    retry: false,
    meta: { silent: true },
  });
