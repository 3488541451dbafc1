import { Anchor, Center, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { readMapSearch } from '../model/params';
import { geoPackagesOf } from '../model/project';
import type { MapSearch } from '../model/search';
import { MapViewer } from './MapViewer';

export const NOT_PUBLIC = 'This map is not public';

export interface EmbedPageProps {
  namespace: string;
  projectName: string;
  /** The project as an anonymous visitor reads it; null when it cannot be read. */
  project: { public?: boolean; files: readonly { path: string }[] } | null;
  search: MapSearch;
}

/**
 * The embed page of a public project's map (issue 32): the map alone, filling the frame
 * another site shows it in, with layer toggles, a clicked feature's attributes, and the credit
 * of the basemap and of the data (a link to the project here). What the visitor changes stays
 * in the frame (its address is the embedding site's).
 */
export function EmbedPage({ namespace, projectName, project, search }: EmbedPageProps) {
  const initial = useMemo(() => readMapSearch(search), [search]);
  const [layers, setLayers] = useState(initial.layers);
  if (!project || project.public !== true) {
    return (
      <Center h="100dvh" p="md">
        <Text c="dimmed">{NOT_PUBLIC}</Text>
      </Center>
    );
  }
  const files = geoPackagesOf(project.files);
  const file = initial.file ?? files[0] ?? '';
  const href = `/projects/${encodeURIComponent(namespace)}/${encodeURIComponent(projectName)}/map`;
  return (
    <MapViewer
      mode="embed"
      source={{ namespace, projectName, file, version: initial.version }}
      files={files}
      layers={layers}
      view={initial.view}
      table={undefined}
      onChange={(change) => {
        if ('layers' in change) setLayers(change.layers);
      }}
      credit={
        <Text size="xs">
          Data:{' '}
          <Anchor href={href} target="_blank" rel="noopener" size="xs">
            {namespace}/{projectName}
          </Anchor>{' '}
          on Waymark
        </Text>
      }
    />
  );
}
