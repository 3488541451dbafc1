/** Project access requests (spec 001 §3, §4 and §9; api-reference A.7). */
import { isExpired } from '@/lib/time';

import type { AccessRequest, AccessRequestList } from '@contract/access-requests';

/** One access request and a page of them, as the server answers (`@contract/access-requests`). */
export type { AccessRequest, AccessRequestList };

/** Page size of access request lists (spec 001 §9: 10, paginator when count exceeds 10). */
export const ACCESS_REQUESTS_PER_PAGE = 10;
/** Default order of access request lists (spec 001 §7). */
export const ACCESS_REQUESTS_ORDER = 'expire ASC';

/** Root of every access request list's query key: all lists refetch after a change. */
export const ACCESS_REQUESTS_KEY = ['access-requests'] as const;

export const FETCH_ACCESS_REQUESTS_FALLBACK = 'Failed to fetch project access requests';
export const CANCEL_ACCESS_REQUEST_FALLBACK = 'Failed to cancel access request';
export const ACCEPT_ACCESS_REQUEST_FALLBACK = 'Failed to accept access request';

/** What an accepted request grants (api-reference A.7 `permissions`); default read (spec 001 §9). */
export type AccessPermission = 'read' | 'write' | 'owner';
export const DEFAULT_ACCESS_PERMISSION: AccessPermission = 'read';
/** The permission dropdown of an access request, labelled with the project role it gives. */
export const ACCESS_PERMISSION_OPTIONS: readonly { value: AccessPermission; label: string }[] = [
  { value: 'read', label: 'Reader' },
  { value: 'write', label: 'Writer' },
  { value: 'owner', label: 'Owner' },
];

export function isRequestExpired(request: AccessRequest, now: number = Date.now()): boolean {
  return request.status === 'expired' || isExpired(request.expire, now);
}

/** The requester's line for one of their own requests (spec 001 §2 "Access request tables"). */
export function ownRequestText(request: AccessRequest): string {
  return `You requested an access to project ${request.project_name} in workspace ${request.namespace}`;
}

/**
 * The page to show after an item was removed (spec 001 §4): if it was the last item of a page
 * beyond the first, go back by one.
 */
export function pageAfterRemoval(page: number, itemsOnPage: number): number {
  return itemsOnPage <= 1 && page > 1 ? page - 1 : page;
}

/** Query parameters of a list page. */
export function accessRequestListQuery(page: number) {
  return { page, per_page: ACCESS_REQUESTS_PER_PAGE, order_params: ACCESS_REQUESTS_ORDER };
}
