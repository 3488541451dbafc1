import { Button, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Paginator } from '@/components/Paginator';
import { TitledSection } from '@/components/TitledSection';
import { notifyError } from '@/lib/notify';
import { useCancelAccessRequestMutation } from '../api/cancelAccessRequest';
import { myAccessRequestsQueryOptions } from '../api/myAccessRequests';
import {
  ACCESS_REQUESTS_PER_PAGE,
  CANCEL_ACCESS_REQUEST_FALLBACK,
  ownRequestText,
  pageAfterRemoval,
  type AccessRequest,
} from '../model/accessRequest';
import { RequestExpiry } from './RequestExpiry';

export const MY_ACCESS_REQUESTS_TITLE = 'You requested access to these projects';

/**
 * The user's own pending access requests on the profile (spec 000 §2, 001 §2), each with a
 * cancel action; the section is left out when there are none.
 */
export function MyAccessRequests() {
  const [page, setPage] = useState(1);
  const query = useQuery(myAccessRequestsQueryOptions(page));
  const cancel = useCancelAccessRequestMutation();
  const data = query.data;
  if (!data || data.count === 0) return null;

  const cancelRequest = (request: AccessRequest) =>
    cancel.mutate(request.id, {
      onSuccess: () => setPage(pageAfterRemoval(page, data.items.length)),
      onError: () => notifyError(CANCEL_ACCESS_REQUEST_FALLBACK),
    });

  return (
    <TitledSection title={MY_ACCESS_REQUESTS_TITLE}>
      <Stack gap={0} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {data.items.map((request, index) => (
          <Group
            key={request.id}
            component="li"
            justify="space-between"
            wrap="wrap"
            gap="sm"
            py="sm"
            style={{
              borderTop: index > 0 ? '1px solid var(--mantine-color-default-border)' : undefined,
            }}
          >
            <Stack gap={2} style={{ flex: 1, minWidth: 220 }}>
              <Text size="sm">{ownRequestText(request)}</Text>
              <Group gap={4}>
                <Text size="xs" c="dimmed">
                  Expires:
                </Text>
                <RequestExpiry request={request} />
              </Group>
            </Stack>
            <Button
              size="xs"
              variant="default"
              onClick={() => cancelRequest(request)}
              loading={cancel.isPending && cancel.variables === request.id}
              aria-label={`Cancel request for project ${request.project_name} in workspace ${request.namespace}`}
            >
              Cancel request
            </Button>
          </Group>
        ))}
      </Stack>
      <Paginator
        page={page}
        count={data.count}
        perPage={ACCESS_REQUESTS_PER_PAGE}
        onChange={setPage}
        label="Requested access pages"
      />
    </TitledSection>
  );
}
