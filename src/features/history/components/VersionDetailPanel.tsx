import { Accordion, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { SidePanel } from '@/components/SidePanel';
import { formatFileSize } from '@/lib/fileSize';
import { isVersionedFile } from '@contract/protocol';
import { AnchorLink } from '@/lib/routerLinks';
import { formatDateTime } from '@/lib/time';
import { projectArchiveUrl } from '@/features/projects';
import { versionQueryOptions } from '../api/version';
import {
  CALCULATING_CHANGES,
  FILE_GROUPS,
  SHOW_ON_MAP,
  detailsNotAvailable,
  isChangesetPending,
  showOnMapSearch,
  type FileChangeset,
  type FileGroupKey,
  type VersionDetail,
  type VersionFileChange,
} from '../model/version';
import { CHANGES_CANNOT_BE_CALCULATED } from '@contract/protocol';
import { ORIGIN_LABEL, originText } from '../model/origin';
import { ChangesetSummaryTable } from './ChangesetSummaryTable';
import { FileLine } from './FileLine';
import { ErrorAlert } from '@/components/ErrorAlert';

export interface VersionDetailPanelProps {
  namespace: string;
  projectName: string;
  projectId: string;
  /** The version shown (vN); undefined closes the panel. */
  version: string | undefined;
  onClose: () => void;
  /** More buttons beside 'Download' (compare, restore: the composition hands them in). */
  actions?: ReactNode;
  /** Buttons on a file's row (e.g. 'Restore this file'); not on files removed in the version. */
  fileActions?: (path: string) => ReactNode;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

/**
 * The version detail sidebar (spec 001 §2 "Versions"): version, author, project size, created,
 * user agent, a download of the project at that version, and the files added, edited and
 * removed; an edited GeoPackage shows its changeset summary and 'Show advanced', or why its
 * details are not available.
 */
export function VersionDetailPanel({
  namespace,
  projectName,
  projectId,
  version,
  onClose,
  actions,
  fileActions,
}: VersionDetailPanelProps) {
  const query = useQuery({
    ...versionQueryOptions(projectId, version ?? ''),
    enabled: version !== undefined,
  });
  return (
    <SidePanel
      opened={version !== undefined}
      onClose={onClose}
      title={version ?? ''}
      header={
        <Title order={2} fz="h4">
          {version}
        </Title>
      }
      footer={
        version && (
          <Group gap="xs">
            <Button
              component="a"
              href={projectArchiveUrl(namespace, projectName, version)}
              download
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              Download
            </Button>
            {actions}
          </Group>
        )
      }
    >
      {query.isPending && version !== undefined && (
        <LoadingIndicator label="Loading version" size="md" />
      )}
      <ErrorAlert error={query.error} />
      {query.data && (
        <VersionDetailBody
          namespace={namespace}
          projectName={projectName}
          detail={query.data}
          fileActions={fileActions}
        />
      )}
    </SidePanel>
  );
}

function VersionDetailBody({
  namespace,
  projectName,
  detail,
  fileActions,
}: {
  namespace: string;
  projectName: string;
  detail: VersionDetail;
  fileActions?: (path: string) => ReactNode;
}) {
  const opened = FILE_GROUPS.filter(({ key }) => detail.changes[key].length > 0).map(
    ({ key }) => key,
  );
  return (
    <Stack gap="sm">
      <Field label="Version">{detail.name}</Field>
      <Field label="Author">{detail.author ?? ''}</Field>
      <Field label="Project size">{formatFileSize(detail.project_size)}</Field>
      <Field label="Created">{formatDateTime(detail.created)}</Field>
      <Field label="User agent">{detail.user_agent ?? ''}</Field>
      {detail.origin && <Field label={ORIGIN_LABEL}>{originText(detail.origin)}</Field>}
      <Accordion multiple defaultValue={opened} variant="separated" mt="sm">
        {FILE_GROUPS.map(({ key, label }) => (
          <Accordion.Item key={key} value={key}>
            <Accordion.Control>
              <Group gap="xs" wrap="nowrap">
                <Text size="sm" fw={600}>
                  {label}
                </Text>
                <Badge size="sm" variant="light">
                  {detail.changes[key].length}
                </Badge>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <FileList
                group={key}
                files={detail.changes[key]}
                changesets={detail.changesets}
                link={(path) => ({ namespace, projectName, version_id: detail.name, _splat: path })}
                actions={key === 'removed' ? undefined : fileActions}
              />
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}

interface FileVersionParams {
  namespace: string;
  projectName: string;
  version_id: string;
  _splat: string;
}

function FileList({
  group,
  files,
  changesets,
  link,
  actions,
}: {
  group: FileGroupKey;
  files: readonly VersionFileChange[];
  changesets: Record<string, FileChangeset>;
  link: (path: string) => FileVersionParams;
  actions?: (path: string) => ReactNode;
}) {
  if (files.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No files
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {files.map((file) => (
        <li key={file.path}>
          <FileLine path={file.path} detail={formatFileSize(file.size)} />
          {group === 'updated' && (
            <FileChanges path={file.path} changeset={changesets[file.path]} link={link} />
          )}
          {actions && (
            <Group mt={4} pl={26}>
              {actions(file.path)}
            </Group>
          )}
        </li>
      ))}
    </Stack>
  );
}

function FileChanges({
  path,
  changeset,
  link,
}: {
  path: string;
  changeset: FileChangeset | undefined;
  link: (path: string) => FileVersionParams;
}) {
  if (isChangesetPending(path, changeset)) {
    return (
      <Text size="xs" c="dimmed" mt={4} role="status">
        {CALCULATING_CHANGES}
      </Text>
    );
  }
  if (!changeset) return null;
  if (changeset.error || changeset.status === 'error') {
    return (
      <Text size="xs" c="red.8" mt={4}>
        {detailsNotAvailable(changeset.error ?? CHANGES_CANNOT_BE_CALCULATED)}
      </Text>
    );
  }
  const params = link(path);
  return (
    <Stack gap={4} mt={4} pl={26}>
      <ChangesetSummaryTable summary={changeset.summary} label={`Changes of ${path}`} />
      <Group gap="md">
        <AnchorLink
          to="/projects/$namespace/$projectName/history/$version_id/$"
          params={params}
          size="sm"
        >
          Show advanced
        </AnchorLink>
        {isVersionedFile(path) && (
          <AnchorLink
            to="/projects/$namespace/$projectName/map"
            params={{ namespace: params.namespace, projectName: params.projectName }}
            search={showOnMapSearch(params.version_id, path)}
            size="sm"
          >
            {SHOW_ON_MAP}
          </AnchorLink>
        )}
      </Group>
    </Stack>
  );
}
