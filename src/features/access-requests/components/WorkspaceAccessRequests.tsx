import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { workspaceAccessRequestsQueryOptions } from '../api/workspaceAccessRequests';
import { FETCH_ACCESS_REQUESTS_FALLBACK } from '../model/accessRequest';
import { AccessRequestsTable } from './AccessRequestsTable';

export const NO_ACCESS_REQUESTS = 'There are no pending access requests.';

export interface WorkspaceAccessRequestsProps {
  namespace: string;
  /**
   * The viewer's project role on the workspace's projects; owners accept and decline. Only
   * workspace admins see this list, and they are owners of every project of the workspace.
   */
  projectRole?: string | null;
}

/**
 * Incoming access requests of a workspace, for its admins (spec 000 §2 Dashboard, 001 §2):
 * requester, project and expiry, accept and decline, 10 per page.
 */
export function WorkspaceAccessRequests({
  namespace,
  projectRole = null,
}: WorkspaceAccessRequestsProps) {
  const [page, setPage] = useState(1);
  const query = useQuery(workspaceAccessRequestsQueryOptions(namespace, page));

  if (query.isPending) {
    return <LoadingIndicator label="Loading access requests" />;
  }
  if (query.isError) {
    return (
      <Text size="sm" c="dimmed">
        {FETCH_ACCESS_REQUESTS_FALLBACK}
      </Text>
    );
  }
  if (query.data.count === 0) {
    return (
      <Text size="sm" c="dimmed">
        {NO_ACCESS_REQUESTS}
      </Text>
    );
  }
  return (
    <AccessRequestsTable
      data={query.data}
      page={page}
      onPageChange={setPage}
      projectRole={projectRole}
      pagesLabel="Access requests pages"
    />
  );
}
