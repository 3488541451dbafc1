import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Paginator } from '../../../components/Paginator';
import { AnchorLink } from '../../../lib/routerLinks';
import { workspaceAccessRequestsQueryOptions } from '../api/workspaceAccessRequests';
import { ACCESS_REQUESTS_PER_PAGE, FETCH_ACCESS_REQUESTS_FALLBACK } from '../model/accessRequest';
import { RequestExpiry } from './RequestExpiry';
import { LoadingIndicator } from '../../../components/LoadingIndicator';

export const NO_ACCESS_REQUESTS = 'There are no pending access requests.';

/**
 * Incoming access requests of a workspace, for its admins (spec 000 §2 Dashboard, 001 §2):
 * requester, project and expiry, 10 per page.
 */
export function WorkspaceAccessRequests({ namespace }: { namespace: string }) {
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
  const { items, count } = query.data;
  if (count === 0) {
    return (
      <Text size="sm" c="dimmed">
        {NO_ACCESS_REQUESTS}
      </Text>
    );
  }

  return (
    <>
      <Table.ScrollContainer minWidth={420}>
        <Table verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Requester</Table.Th>
              <Table.Th>Project</Table.Th>
              <Table.Th>Expires</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((request) => (
              <Table.Tr key={request.id}>
                <Table.Td>{request.requested_by}</Table.Td>
                <Table.Td>
                  <AnchorLink
                    to="/projects/$namespace/$projectName"
                    params={{ namespace: request.namespace, projectName: request.project_name }}
                    size="sm"
                  >
                    {request.project_name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td>
                  <RequestExpiry request={request} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Paginator
        page={page}
        count={count}
        perPage={ACCESS_REQUESTS_PER_PAGE}
        onChange={setPage}
        label="Access requests pages"
      />
    </>
  );
}
