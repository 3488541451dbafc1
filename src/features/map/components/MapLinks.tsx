import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconLink, IconShare, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { AppDialog, DIALOG_WIDTH } from '@/components/AppDialog';
import { isProjectOwner } from '@/lib/permissions';
import type { ProjectDetail } from '@contract/projects';
import { embedSnippet, embedUrl, ogcAddress, shareMapUrl } from '../model/dataOut';
import type { MapSearch } from '../model/search';
import { CopyField } from '@/components/CopyField';
import { ViewLinksDialog } from './ViewLinksDialog';

export const USE_IN_QGIS = 'Use in QGIS';
export const SHARE_MAP = 'Share map';
export const VIEW_LINKS = 'View links';

export interface MapLinksProps {
  project: Pick<ProjectDetail, 'namespace' | 'name' | 'public' | 'role'>;
  /** The version shown (`vN`). */
  version: string | undefined;
  search: MapSearch;
}

/**
 * The Map tab's ways out (issue 32): 'Use in QGIS' (the OGC API - Features address to copy),
 * 'Share map' for a public project (the link to this view and the embed snippet), and 'View
 * links' for an owner of a private project (read-only links with an expiry).
 */
export function MapLinks({ project, version, search }: MapLinksProps) {
  const [open, setOpen] = useState<'qgis' | 'share' | 'links' | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconWorld size={16} aria-hidden />}
        onClick={() => setOpen('qgis')}
      >
        {USE_IN_QGIS}
      </Button>
      {project.public ? (
        <Button
          variant="default"
          leftSection={<IconShare size={16} aria-hidden />}
          onClick={() => setOpen('share')}
        >
          {SHARE_MAP}
        </Button>
      ) : (
        isProjectOwner(project) && (
          <Button
            variant="default"
            leftSection={<IconLink size={16} aria-hidden />}
            onClick={() => setOpen('links')}
          >
            {VIEW_LINKS}
          </Button>
        )
      )}
      <AppDialog
        opened={open === 'qgis'}
        onClose={close}
        title={USE_IN_QGIS}
        maxWidth={DIALOG_WIDTH.share}
      >
        <UseInQgis project={project} version={version} />
      </AppDialog>
      {project.public && (
        <AppDialog
          opened={open === 'share'}
          onClose={close}
          title={SHARE_MAP}
          maxWidth={DIALOG_WIDTH.share}
        >
          <ShareMap project={project} search={{ ...search, version: search.version && version }} />
        </AppDialog>
      )}
      {open === 'links' && <ViewLinksDialog project={project} onClose={close} />}
    </>
  );
}

function UseInQgis({ project, version }: Pick<MapLinksProps, 'project' | 'version'>) {
  const origin = window.location.origin;
  const latest = ogcAddress(origin, project.namespace, project.name);
  return (
    <Stack gap="sm">
      <Text size="sm">
        QGIS and GDAL read this project&apos;s layers as OGC API - Features. In QGIS: Layer ▸ Add
        Layer ▸ Add WFS / OGC API - Features Layer, a new connection with this address.
      </Text>
      <CopyField label="Address of the latest version" value={latest} />
      {version && (
        <CopyField
          label={`Address of ${version} (does not change)`}
          value={ogcAddress(origin, project.namespace, project.name, version)}
        />
      )}
      <Text size="sm" c="dimmed">
        {project.public
          ? 'The project is public: anyone with the address reads its layers.'
          : 'The project is private: QGIS and GDAL send a token in an Authorization header (Bearer), or as the password of basic authentication.'}
      </Text>
      <Text size="sm" c="dimmed">
        GDAL: <code>ogr2ogr out.gpkg OAPIF:{latest}</code>
      </Text>
    </Stack>
  );
}

function ShareMap({ project, search }: { project: MapLinksProps['project']; search: MapSearch }) {
  const origin = window.location.origin;
  const link = shareMapUrl(origin, project.namespace, project.name, search);
  const embed = embedUrl(origin, project.namespace, project.name, search);
  return (
    <Stack gap="sm">
      <Text size="sm">
        Anyone with the link sees this map as it is now: its view, layers and version.
      </Text>
      <CopyField label="Link to this map" value={link} />
      <CopyField
        label="Embed code"
        value={embedSnippet(embed, `Map of ${project.namespace}/${project.name}`)}
        multiline
      />
      <Anchor href={embed} target="_blank" rel="noopener" size="sm">
        Open the embedded map
      </Anchor>
    </Stack>
  );
}
