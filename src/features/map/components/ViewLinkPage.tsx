import { Badge, Box, Group, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import type { ViewLinkOpen } from '@contract/view-links';
import { readMapSearch } from '../model/params';
import { versionNames } from '../model/project';
import type { MapSearch } from '../model/search';
import { MapViewer } from './MapViewer';

export const READ_ONLY_VIEW = 'Read-only view';

export interface ViewLinkPageProps {
  token: string;
  link: ViewLinkOpen;
  search: MapSearch;
  onSearch: (change: Partial<MapSearch>, replace?: boolean) => void;
}

/**
 * The page of a read-only view link (issue 32): the project's map and attribute tables at any
 * version, for whoever holds the link until it expires or is revoked; no files, no members,
 * no exports.
 */
export function ViewLinkPage({ token, link, search: raw, onSearch }: ViewLinkPageProps) {
  const search = useMemo(() => readMapSearch(raw), [raw]);
  const file = search.file ?? link.map_files[0] ?? '';
  return (
    <Box component="main" p="md">
      <Stack gap="sm">
        <Group gap="sm" align="baseline">
          <Title order={1} fz="h3" style={{ wordBreak: 'break-all' }}>
            {link.namespace}/{link.name}
          </Title>
          <Badge variant="light">{READ_ONLY_VIEW}</Badge>
        </Group>
        <Text size="sm" c="dimmed">
          {link.label ? `${link.label} · ` : ''}This link works until{' '}
          {new Date(link.expires_at).toLocaleString()}.
        </Text>
        {link.map_files.length === 0 ? (
          <Text c="dimmed">This project has no GeoPackage to show on a map</Text>
        ) : (
          <MapViewer
            mode="page"
            source={{
              namespace: link.namespace,
              projectName: link.name,
              file,
              version: search.version,
              link: token,
            }}
            files={link.map_files}
            versions={versionNames(link.latest_version)}
            layers={search.layers}
            view={search.view}
            table={search.table}
            onChange={onSearch}
          />
        )}
      </Stack>
    </Box>
  );
}
