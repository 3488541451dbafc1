// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  accessRequestListQuery,
  isRequestExpired,
  ownRequestText,
  pageAfterRemoval,
  type AccessRequest,
} from './accessRequest';

const now = Date.parse('2026-06-15T12:00:00Z');
const request: AccessRequest = {
  id: 1,
  requested_by: 'jane',
  project_name: 'survey',
  namespace: 'waymark',
  expire: '2026-06-20T12:00:00Z',
  status: 'pending',
};

describe('access requests', () => {
  it('are expired when the server says so or the expiry has passed', () => {
    expect(isRequestExpired(request, now)).toBe(false);
    expect(isRequestExpired({ ...request, status: 'expired' }, now)).toBe(true);
    expect(
      isRequestExpired({ ...request, expire: '2026-06-01T00:00:00Z', status: 'pending' }, now),
    ).toBe(true);
  });

  it('tell the requester what they asked for', () => {
    expect(ownRequestText(request)).toBe(
      'You requested an access to project survey in workspace waymark',
    );
  });

  it('go back a page when the last item of a later page is removed', () => {
    expect(pageAfterRemoval(3, 1)).toBe(2);
    expect(pageAfterRemoval(3, 2)).toBe(3);
    expect(pageAfterRemoval(1, 1)).toBe(1);
  });

  it('ask for 10 per page ordered by expiry', () => {
    expect(accessRequestListQuery(2)).toEqual({
      page: 2,
      per_page: 10,
      order_params: 'expire ASC',
    });
  });
});
