import { Button, Group, Table } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/api';
import { AppDropdown } from '@/components/AppDropdown';
import { Paginator } from '@/components/Paginator';
import { notifyError } from '@/lib/notify';
import { canAcceptAccessRequest, canCancelAccessRequest } from '@/lib/permissions';
import { AnchorLink } from '@/lib/routerLinks';
import { useAcceptAccessRequestMutation } from '../api/acceptAccessRequest';
import { useCancelAccessRequestMutation } from '../api/cancelAccessRequest';
import {
  ACCEPT_ACCESS_REQUEST_FALLBACK,
  ACCESS_PERMISSION_OPTIONS,
  ACCESS_REQUESTS_PER_PAGE,
  CANCEL_ACCESS_REQUEST_FALLBACK,
  DEFAULT_ACCESS_PERMISSION,
  isRequestExpired,
  pageAfterRemoval,
  type AccessPermission,
  type AccessRequest,
  type AccessRequestList,
} from '../model/accessRequest';
import { RequestExpiry } from './RequestExpiry';

export interface AccessRequestsTableProps {
  data: AccessRequestList;
  page: number;
  onPageChange: (page: number) => void;
  /** Leaves out the Project column (the table of one project's screen). */
  hideProject?: boolean;
  /**
   * The viewer's project role on the listed projects: owners accept and decline. Workspace
   * admins (the only ones who see these lists) are owners of every project of the workspace.
   */
  projectRole: string | null;
  /** Called after a request was accepted (the members list changed). */
  onAccepted?: (request: AccessRequest) => void;
  /** Name of the page navigation. */
  pagesLabel: string;
}

/**
 * Incoming access requests (spec 001 §2 "Access request tables", §4, §5): requester, project,
 * expiry, and for owners a permission dropdown (default read) with Accept, and Decline. Expired
 * requests show 'expired' and cannot be accepted. After a change the list is refetched, one
 * page back when the last item of a later page went.
 */
export function AccessRequestsTable({
  data,
  page,
  onPageChange,
  hideProject = false,
  projectRole,
  onAccepted,
  pagesLabel,
}: AccessRequestsTableProps) {
  const accept = useAcceptAccessRequestMutation();
  const cancel = useCancelAccessRequestMutation();
  const [permissions, setPermissions] = useState<Record<number, AccessPermission>>({});
  const { items, count } = data;
  const afterRemoval = () => onPageChange(pageAfterRemoval(page, items.length));
  const acting = (request: AccessRequest) =>
    (accept.isPending && accept.variables?.id === request.id) ||
    (cancel.isPending && cancel.variables === request.id);
  const manages = canCancelAccessRequest(projectRole, false);

  return (
    <>
      <Table.ScrollContainer minWidth={manages ? 640 : 420}>
        <Table verticalSpacing="xs" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Requester</Table.Th>
              {!hideProject && <Table.Th>Project</Table.Th>}
              <Table.Th>Expires</Table.Th>
              {manages && <Table.Th>Permissions</Table.Th>}
              {manages && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((request) => {
              const expired = isRequestExpired(request);
              const acceptable = canAcceptAccessRequest(projectRole, expired);
              const permission = permissions[request.id] ?? DEFAULT_ACCESS_PERMISSION;
              const who = `${request.requested_by} to ${request.namespace}/${request.project_name}`;
              return (
                <Table.Tr key={request.id}>
                  <Table.Td>{request.requested_by}</Table.Td>
                  {!hideProject && (
                    <Table.Td>
                      <AnchorLink
                        to="/projects/$namespace/$projectName"
                        params={{
                          namespace: request.namespace,
                          projectName: request.project_name,
                        }}
                        size="sm"
                      >
                        {request.project_name}
                      </AnchorLink>
                    </Table.Td>
                  )}
                  <Table.Td>
                    <RequestExpiry request={request} />
                  </Table.Td>
                  {manages && (
                    <Table.Td>
                      {acceptable && (
                        <AppDropdown
                          aria-label={`Permissions for ${who}`}
                          size="xs"
                          w={120}
                          options={ACCESS_PERMISSION_OPTIONS}
                          value={permission}
                          onChange={(value) =>
                            setPermissions((current) => ({ ...current, [request.id]: value }))
                          }
                          comboboxProps={{ withinPortal: true }}
                        />
                      )}
                    </Table.Td>
                  )}
                  {manages && (
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        {acceptable && (
                          <Button
                            size="xs"
                            aria-label={`Accept request of ${who}`}
                            disabled={acting(request)}
                            loading={accept.isPending && accept.variables?.id === request.id}
                            onClick={() =>
                              accept.mutate(
                                { id: request.id, permissions: permission },
                                {
                                  onSuccess: () => {
                                    afterRemoval();
                                    onAccepted?.(request);
                                  },
                                  onError: (error) =>
                                    notifyError(
                                      errorMessage(error, ACCEPT_ACCESS_REQUEST_FALLBACK),
                                    ),
                                },
                              )
                            }
                          >
                            Accept
                          </Button>
                        )}
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`Decline request of ${who}`}
                          disabled={acting(request)}
                          loading={cancel.isPending && cancel.variables === request.id}
                          onClick={() =>
                            cancel.mutate(request.id, {
                              onSuccess: afterRemoval,
                              onError: () => notifyError(CANCEL_ACCESS_REQUEST_FALLBACK),
                            })
                          }
                        >
                          Decline
                        </Button>
                      </Group>
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Paginator
        page={page}
        count={count}
        perPage={ACCESS_REQUESTS_PER_PAGE}
        onChange={onPageChange}
        label={pagesLabel}
      />
    </>
  );
}
