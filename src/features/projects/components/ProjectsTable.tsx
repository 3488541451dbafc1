import { Badge, Box, Group, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { LazyTooltip } from '@/components/lazyTooltip';
import { AnchorLink } from '@/lib/routerLinks';
import { formatDateTime, relativeTime } from '@/lib/time';
import {
  CONFLICTING_FILE,
  NO_QGIS_PROJECT,
  collaboratorCount,
  lacksQgisProject,
  projectSize,
  versionColumn,
  type ProjectListItem,
} from '../model/projectList';

export interface ProjectsTableProps {
  projects: readonly ProjectListItem[];
  /** Prefixes names with their namespace. */
  showNamespace?: boolean;
  /** Marks public projects with a 'Public' tag (off when the list holds public projects only). */
  showPublicTag?: boolean;
  /** Shown instead of the table when there are no projects. */
  empty: ReactNode;
}

function Warning({ label }: { label: string }) {
  return (
    <LazyTooltip label={label} withArrow>
      <Box component="span" role="img" aria-label={label} c="orange.9" display="inline-flex">
        <IconAlertTriangle size={16} aria-hidden />
      </Box>
    </LazyTooltip>
  );
}

/**
 * The projects table (spec 001 §2 "Projects list"): Project name (with tags, warnings and the
 * update time), Versions, Size and Collaborators; a row or its name opens the project.
 */
export function ProjectsTable({
  projects,
  showNamespace = false,
  showPublicTag = true,
  empty,
}: ProjectsTableProps) {
  const navigate = useNavigate();
  if (projects.length === 0) return <>{empty}</>;

  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Project name</Table.Th>
            <Table.Th>Versions</Table.Th>
            <Table.Th>Size</Table.Th>
            <Table.Th>Collaborators</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {projects.map((project) => {
            const params = { namespace: project.namespace, projectName: project.name };
            return (
              <Table.Tr
                key={project.id}
                style={{ cursor: 'pointer' }}
                onClick={(event) => {
                  // The name link navigates by itself (and keeps new-tab clicks working).
                  if ((event.target as HTMLElement).closest('a')) return;
                  void navigate({ to: '/projects/$namespace/$projectName', params });
                }}
              >
                <Table.Td>
                  <Stack gap={2}>
                    <Group gap={6} wrap="wrap">
                      <AnchorLink
                        to="/projects/$namespace/$projectName"
                        params={params}
                        fw={600}
                        size="sm"
                      >
                        {showNamespace ? `${project.namespace} / ${project.name}` : project.name}
                      </AnchorLink>
                      {showPublicTag && project.access?.public && (
                        <Badge size="xs" variant="outline" color="gray">
                          Public
                        </Badge>
                      )}
                      {lacksQgisProject(project.tags) && <Warning label={NO_QGIS_PROJECT} />}
                      {project.has_conflict && <Warning label={CONFLICTING_FILE} />}
                    </Group>
                    <Text size="xs" c="dimmed">
                      Updated{' '}
                      <LazyTooltip label={formatDateTime(project.updated)} withArrow>
                        <Text component="time" dateTime={project.updated} inherit>
                          {relativeTime(project.updated)}
                        </Text>
                      </LazyTooltip>
                    </Text>
                  </Stack>
                </Table.Td>
                <Table.Td>{versionColumn(project.version)}</Table.Td>
                <Table.Td>{projectSize(project.disk_usage)}</Table.Td>
                <Table.Td>{collaboratorCount(project.access)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
