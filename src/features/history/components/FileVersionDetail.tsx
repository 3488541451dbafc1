import { Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, type ReactNode } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { TitledSection } from '@/components/TitledSection';
import { configQueryOptions } from '@/platform/config';
import { isNotSavedOffline } from '@/offline/offlineCache';
import {
  CHANGES_CANNOT_BE_CALCULATED,
  changesImpossibleReason,
  isVersionedFile,
} from '@contract/protocol';
import { AnchorLink } from '@/lib/routerLinks';
import { FileIcon, fileName } from '@/features/projects';
import { changesetQueryOptions } from '../api/changeset';
import { versionQueryOptions } from '../api/version';
import {
  NO_CHANGESET_FOR_LAYER,
  changesetTables,
  synchronisationDocsUrl,
} from '../model/changeset';
import {
  CALCULATING_CHANGES,
  SHOW_ON_MAP,
  isChangesetPending,
  showOnMapSearch,
} from '../model/version';
import { ChangesetSummaryTable } from './ChangesetSummaryTable';
import { ChangesetTable } from './ChangesetTable';

export interface FileVersionDetailProps {
  namespace: string;
  projectName: string;
  projectId: string;
  version: string;
  path: string;
  /** Buttons beside the file's name (e.g. 'Restore this file': the composition hands them in). */
  actions?: ReactNode;
}

/**
 * The changes of one file in one version (spec 001 §2 "File version detail"): the summary per
 * table, then one table of changed rows per database table; 'Changes cannot be calculated'
 * with a link to the documentation when the server could not work them out.
 */
export function FileVersionDetail({
  namespace,
  projectName,
  projectId,
  version,
  path,
  actions,
}: FileVersionDetailProps) {
  const detail = useQuery(versionQueryOptions(projectId, version));
  const changeset = detail.data?.changesets[path];
  // Only an edit has a changeset: a file added (or removed) in this version has none to wait for.
  const notEdited =
    detail.data !== undefined &&
    changeset === undefined &&
    !detail.data.changes.updated.some((file) => file.path === path);
  const calculating =
    detail.data !== undefined && !notEdited && isChangesetPending(path, changeset);
  const failed = changeset?.status === 'error' || Boolean(changeset?.error);
  const entries = useQuery({
    ...changesetQueryOptions(namespace, projectName, version, path),
    // Asked once the version says the changeset is ready; a version that cannot be read (e.g.
    // a visitor without the rights to its details) does not hold the changes back.
    enabled: !detail.isPending && !calculating && !failed && !notEdited,
    // Its error shows in the page ('Changes cannot be calculated' with the reason), not again
    // as a toast.
    meta: { silent: true },
  });
  const tables = useMemo(
    () => (entries.data ? changesetTables(entries.data.entries, changeset?.summary) : []),
    [entries.data, changeset?.summary],
  );

  // Offline, a page never opened here says so, as other pages do (issue 31).
  const notSaved = [detail.error, entries.error].find(isNotSavedOffline);

  let body;
  if (notSaved) {
    body = (
      <Text c="dimmed" ta="center" py="md" role="status">
        {notSaved.message}
      </Text>
    );
  } else if (detail.isPending || (entries.isPending && entries.fetchStatus !== 'idle')) {
    body = <LoadingIndicator label="Loading changes" size="md" />;
  } else if (calculating || entries.data?.pending) {
    body = (
      <Text c="dimmed" role="status">
        {CALCULATING_CHANGES}
      </Text>
    );
  } else if (notEdited) {
    body = (
      <Text c="dimmed" ta="center" py="md">
        {NO_CHANGESET_FOR_LAYER}
      </Text>
    );
  } else if (failed || entries.isError) {
    body = <CannotBeCalculated reason={changeset?.error ?? entries.error?.message} />;
  } else if (tables.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="md">
        {NO_CHANGESET_FOR_LAYER}
      </Text>
    );
  } else {
    body = (
      <>
        {changeset?.summary && (
          <TitledSection title="Summary" order={3}>
            <ChangesetSummaryTable summary={changeset.summary} label="Summary" />
          </TitledSection>
        )}
        {tables.map((table) => (
          <TitledSection key={table.name} title={table.name} order={3}>
            <ChangesetTable table={table} />
          </TitledSection>
        ))}
      </>
    );
  }

  return (
    <Stack gap={0}>
      <Group gap="xs" mb="md" wrap="nowrap">
        <FileIcon entry={{ type: 'file', name: fileName(path) }} />
        <Title order={2} fz="h4" style={{ wordBreak: 'break-all', flex: 1 }}>
          {path}
        </Title>
        {actions}
        {isVersionedFile(path) && (
          <AnchorLink
            to="/projects/$namespace/$projectName/map"
            params={{ namespace, projectName }}
            search={showOnMapSearch(version, path)}
            size="sm"
            style={{ whiteSpace: 'nowrap' }}
          >
            {SHOW_ON_MAP}
          </AnchorLink>
        )}
      </Group>
      {body}
    </Stack>
  );
}

/** 'Changes cannot be calculated' with the server's reason (when it adds one) and the docs link. */
function CannotBeCalculated({ reason }: { reason: string | undefined }) {
  const config = useQuery(configQueryOptions);
  const detail = changesImpossibleReason(reason) ?? reason;
  return (
    <Paper withBorder radius="md" p="lg" ta="center">
      <Title order={3} fz="h4" mb="xs">
        {CHANGES_CANNOT_BE_CALCULATED}
      </Title>
      {detail && detail !== CHANGES_CANNOT_BE_CALCULATED && (
        <Text size="sm" c="dimmed" mb="xs">
          {detail}
        </Text>
      )}
      <Text size="sm">
        For details please check the{' '}
        <Anchor
          href={synchronisationDocsUrl(config.data?.docs_url ?? '')}
          target="_blank"
          rel="noopener noreferrer"
        >
          documentation
        </Anchor>
        .
      </Text>
    </Paper>
  );
}
