import { Badge, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { TitledSection } from '@/components/TitledSection';
import { workspaceAccessRequestsQueryOptions } from '../api/workspaceAccessRequests';
import type { AccessRequest } from '../model/accessRequest';
import { AccessRequestsTable } from './AccessRequestsTable';

export const PROJECT_ACCESS_REQUESTS_TITLE = 'Access requests';

export interface ProjectAccessRequestsProps {
  namespace: string;
  projectName: string;
  /** The viewer's role on the project: owners accept and decline. */
  projectRole: string | null;
  onAccepted?: (request: AccessRequest) => void;
}

/**
 * The pending requests of one project on its collaborators tab, for workspace admins (spec 001
 * §2): a section with their count, left out while there are none.
 */
export function ProjectAccessRequests({
  namespace,
  projectName,
  projectRole,
  onAccepted,
}: ProjectAccessRequestsProps) {
  const [page, setPage] = useState(1);
  const query = useQuery(workspaceAccessRequestsQueryOptions(namespace, page, projectName));
  const data = query.data;
  if (!data || data.count === 0) return null;
  return (
    <TitledSection
      title={
        <Group gap="xs" component="span">
          {PROJECT_ACCESS_REQUESTS_TITLE}
          <Badge variant="light" aria-label={`${data.count} pending`}>
            {data.count}
          </Badge>
        </Group>
      }
    >
      <AccessRequestsTable
        data={data}
        page={page}
        onPageChange={setPage}
        hideProject
        projectRole={projectRole}
        onAccepted={onAccepted}
        pagesLabel="Project access requests pages"
      />
    </TitledSection>
  );
}
