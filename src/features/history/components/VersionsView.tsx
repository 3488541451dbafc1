import { Group, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { Paginator } from '@/components/Paginator';
import { SortMenu } from '@/components/SortMenu';
import { versionsQueryOptions } from '../api/versions';
import {
  VERSIONS_PER_PAGE,
  VERSION_SORT_OPTIONS,
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
}

/** The History tab (spec 001 §2 "Versions"): sort menu, versions table and pagination. */
export function VersionsView({ namespace, projectName, selected, onOpen }: VersionsViewProps) {
  const [sort, setSort] = useState<VersionSortKey>('newest');
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
        <SortMenu
          options={VERSION_SORT_OPTIONS}
          value={sort}
          onChange={(next) => {
            setSort(next);
            setPage(1);
          }}
        />
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
