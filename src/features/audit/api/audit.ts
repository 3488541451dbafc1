/** The audit log (GET /app/audit and /app/audit.csv; contract schemas/audit.ts). */
import type { AuditPage, AuditQuery } from '@contract/audit';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '@/api';

export type { AuditEntry, AuditPage, AuditQuery } from '@contract/audit';

export const LOAD_AUDIT_FALLBACK = 'Failed to load the audit log';

/** The query string of a filter (empty values left out). */
export function auditSearch(query: AuditQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const auditQueryOptions = (query: AuditQuery) =>
  queryOptions({
    queryKey: ['audit', query],
    queryFn: ({ signal }) =>
      api.get<AuditPage>(`/app/audit${auditSearch(query)}`, {
        signal,
        fallbackMessage: LOAD_AUDIT_FALLBACK,
      }),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });

/** Where the CSV of every entry matching the filter downloads from. */
export function auditCsvUrl(query: AuditQuery): string {
  const { page: _page, per_page: _perPage, ...filter } = query;
  return `/app/audit.csv${auditSearch(filter)}`;
}
