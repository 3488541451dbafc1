import { ActionIcon, Box, Checkbox, Table, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import type { CSSProperties } from 'react';
import { LazyTooltip } from '@/components/lazyTooltip';
import { IconDownload } from '@tabler/icons-react';
import { formatFileSize } from '@/lib/fileSize';
import { AnchorLink } from '@/lib/routerLinks';
import { formatDateTime, relativeTime } from '@/lib/time';
import { OfflineReason } from '@/offline/components/OfflineReason';
import { useOnline } from '@/offline/useOnline';
import { projectArchiveUrl } from '@/features/projects';
import { NO_VERSIONS_FOUND, editedCount, type VersionListItem } from '../model/version';

export interface VersionsTableProps {
  namespace: string;
  projectName: string;
  versions: readonly VersionListItem[];
  /** The version whose details are open (its row is marked). */
  selected?: string;
  onOpen: (version: string) => void;
  /** Versions picked for comparing; with `onPick`, each row gets a checkbox. */
  picked?: readonly string[];
  onPick?: (version: string) => void;
}

const COLUMNS = 8;

/** A touch target of 44 px around a row's checkbox. */
const PICK_TARGET: CSSProperties = {
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  minWidth: 44,
  minHeight: 44,
  cursor: 'pointer',
};

/**
 * The versions of a project (spec 001 §2 "Versions"): name, creation, author, changed files,
 * project size and a download of the project at that version; a row opens its details.
 */
export function VersionsTable({
  namespace,
  projectName,
  versions,
  selected,
  onOpen,
  picked,
  onPick,
}: VersionsTableProps) {
  // Downloads need the server: offline they are disabled with the reason.
  const online = useOnline();
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table aria-label="Versions" highlightOnHover verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            {onPick && (
              <Table.Th w={40}>
                <VisuallyHidden>Compare</VisuallyHidden>
              </Table.Th>
            )}
            <Table.Th>Version</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Author</Table.Th>
            <Table.Th ta="right">Files added</Table.Th>
            <Table.Th ta="right">Files edited</Table.Th>
            <Table.Th ta="right">Files removed</Table.Th>
            <Table.Th ta="right">Size</Table.Th>
            <Table.Th w={48}>
              <VisuallyHidden>Download</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {versions.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={COLUMNS + (onPick ? 1 : 0)}>
                <Text size="sm" c="dimmed" ta="center" py="md">
                  {NO_VERSIONS_FOUND}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {versions.map((version) => (
            <Table.Tr
              key={version.name}
              data-selected={version.name === selected || undefined}
              bg={version.name === selected ? 'var(--mantine-color-default-hover)' : undefined}
              style={{ cursor: 'pointer' }}
              onClick={(event) => {
                if ((event.target as HTMLElement).closest('a, [data-pick]')) return;
                onOpen(version.name);
              }}
            >
              {onPick && (
                <Table.Td data-pick p={0}>
                  {/* The whole 44 px square takes the tap, not the 20 px box alone (issue 31). */}
                  <Box component="label" style={PICK_TARGET}>
                    <Checkbox
                      aria-label={`Select ${version.name}`}
                      checked={picked?.includes(version.name) ?? false}
                      onChange={() => onPick(version.name)}
                    />
                  </Box>
                </Table.Td>
              )}
              <Table.Td>
                <AnchorLink
                  to="/projects/$namespace/$projectName/history"
                  params={{ namespace, projectName }}
                  search={{ version_id: version.name }}
                  size="sm"
                  fw={600}
                >
                  {version.name}
                </AnchorLink>
              </Table.Td>
              <Table.Td>
                {version.created && (
                  // For a mouse only: a tooltip opened by a tap would stay (issue 31).
                  <LazyTooltip label={formatDateTime(version.created)} withArrow>
                    <Text component="time" dateTime={version.created} size="sm">
                      {relativeTime(version.created)}
                    </Text>
                  </LazyTooltip>
                )}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{version.author ?? ''}</Text>
              </Table.Td>
              <Table.Td ta="right">{version.changes.added}</Table.Td>
              <Table.Td ta="right">{editedCount(version.changes)}</Table.Td>
              <Table.Td ta="right">{version.changes.removed}</Table.Td>
              <Table.Td ta="right">
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatFileSize(version.project_size)}
                </Text>
              </Table.Td>
              <Table.Td>
                {online ? (
                  <Tooltip label={`Download ${version.name}`} withArrow>
                    <ActionIcon
                      component="a"
                      href={projectArchiveUrl(namespace, projectName, version.name)}
                      download
                      variant="subtle"
                      aria-label={`Download ${version.name}`}
                    >
                      <IconDownload size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                ) : (
                  <OfflineReason offline>
                    <ActionIcon disabled variant="subtle" aria-label={`Download ${version.name}`}>
                      <IconDownload size={18} aria-hidden />
                    </ActionIcon>
                  </OfflineReason>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
