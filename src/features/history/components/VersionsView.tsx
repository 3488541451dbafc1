import { Button, Group, Title } from '@mantine/core';
import { IconArrowsDiff } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { Paginator } from '@/components/Paginator';
import { SortMenu } from '@/components/SortMenu';
import { versionsQueryOptions } from '../api/versions';
import {
  VERSIONS_PER_PAGE,
  VERSION_SORT_OPTIONS,
  COMPARE_HINT,
  togglePick,
  versionListParams,
  type VersionSortKey,
} from '../model/version';
import { VersionsTable } from './VersionsTable';

export interface VersionsViewProps {
  namespace: string;
  projectName: string;
  /** The version whose details are open. */
  selected?: string;
  onOpen: (version: string) => void;
  /** Compares two picked versions; with it, rows can be picked and 'Compare' shows. */
  onCompare?: (a: string, b: string) => void;
}

/** The History tab (spec 001 §2 "Versions"): sort menu, versions table and pagination. */
export function VersionsView({
  namespace,
  projectName,
  selected,
  onOpen,
  onCompare,
}: VersionsViewProps) {
  const [sort, setSort] = useState<VersionSortKey>('newest');
  const [picked, setPicked] = useState<string[]>([]);
  const [first, second] = picked;
  const [page, setPage] = useState(1);
  const query = useQuery(
    versionsQueryOptions(namespace, projectName, versionListParams(page, sort)),
  );
  return (
    <>
      <Group justify="space-between" mb="sm" gap="sm" wrap="nowrap">
        <Title order={2} fz="h4">
          Versions
        </Title>
        <Group gap="xs" wrap="nowrap">
          {onCompare && (
            <Button
              variant="default"
              leftSection={<IconArrowsDiff size={16} aria-hidden />}
              disabled={!first || !second}
              title={first && second ? undefined : COMPARE_HINT}
              onClick={() => first && second && onCompare(first, second)}
            >
              Compare
            </Button>
          )}
          <SortMenu
            options={VERSION_SORT_OPTIONS}
            value={sort}
            onChange={(next) => {
              setSort(next);
              setPage(1);
            }}
          />
        </Group>
      </Group>
      {query.isPending ? (
        <LoadingIndicator label="Loading versions" />
      ) : (
        <VersionsTable
          namespace={namespace}
          projectName={projectName}
          versions={query.data?.versions ?? []}
          selected={selected}
          onOpen={onOpen}
          picked={picked}
          onPick={onCompare && ((version) => setPicked((now) => togglePick(now, version)))}
        />
      )}
      <Paginator
        page={page}
        count={query.data?.count ?? 0}
        perPage={VERSIONS_PER_PAGE}
        onChange={setPage}
        label="Versions pagination"
      />
    </>
  );
}
