import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { paginatedProjectsQueryOptions } from '../api/paginatedProjects';
import { FETCH_PROJECTS_FALLBACK, recentProjectsParams } from '../model/projectList';
import { ProjectsTable } from './ProjectsTable';
import { LoadingIndicator } from '@/components/LoadingIndicator';

export const NO_PROJECTS_YET = "You don't have any projects yet.";

/** The dashboard's 'Recent active projects': the 5 last updated projects of the workspace. */
export function RecentProjects({ workspaceName }: { workspaceName: string }) {
  const query = useQuery(paginatedProjectsQueryOptions(recentProjectsParams(workspaceName)));

  if (query.isPending) {
    return <LoadingIndicator label="Loading projects" />;
  }
  if (query.isError) {
    return (
      <Text size="sm" c="dimmed">
        {FETCH_PROJECTS_FALLBACK}
      </Text>
    );
  }
  return (
    <ProjectsTable
      projects={query.data.projects}
      empty={
        <Text size="sm" c="dimmed">
          {NO_PROJECTS_YET}
        </Text>
      }
    />
  );
}
