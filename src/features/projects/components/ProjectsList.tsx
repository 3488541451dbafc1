import { Badge, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFolderOpen, IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { PageTitle } from '@/components/PageTitle';
import { Paginator } from '@/components/Paginator';
import { SortMenu } from '@/components/SortMenu';
import { paginatedProjectsQueryOptions } from '../api/paginatedProjects';
import { templatesQueryOptions } from '../api/templates';
import {
  DEFAULT_PROJECT_SORT,
  FETCH_PROJECTS_FALLBACK,
  NAMESPACE_NOT_FOUND,
  NO_MATCHING_PROJECTS,
  PROJECTS_PER_PAGE,
  PROJECT_SEARCH_DEBOUNCE_MS,
  PROJECT_SORT_OPTIONS,
  SEARCH_PROJECTS_PLACEHOLDER,
  START_CREATING,
  ADMINS_CREATE_PROJECTS,
  projectListParams,
  type ProjectListScope,
  type ProjectSortKey,
} from '../model/projectList';
import { ProjectsTable } from './ProjectsTable';
import { NO_PROJECTS_YET } from './RecentProjects';
import { isNotSavedOffline } from '@/offline/offlineCache';
import { lazyWhenOpened } from '@/components/lazyWhenOpened';

/** The dialog's code loads when it is first opened (issue 8's bundle budget). */
const NewProjectDialog = lazyWhenOpened(
  async () => (await import('./NewProjectDialog')).NewProjectDialog,
);

/** Loaded only when there are templates to offer (issue 8's bundle budget). */
const TemplatesBanner = lazy(async () => ({
  default: (await import('./TemplatesBanner')).TemplatesBanner,
}));

export interface ProjectsListProps {
  title: string;
  scope: ProjectListScope;
  /** Workspace new projects go to; creation is offered only with one and `canCreate`. */
  createNamespace?: string | null;
  canCreate?: boolean;
  showNamespace?: boolean;
  /** Whether the namespace is known (false shows 'Namespace not found…' on an empty list). */
  namespaceKnown?: boolean;
  onOpenProject: (namespace: string, name: string) => void;
}

/** A projects list page (spec 001 §2 "Projects list", §4 list states). */
export function ProjectsList({
  title,
  scope,
  createNamespace,
  canCreate = false,
  showNamespace = false,
  namespaceKnown = true,
  onOpenProject,
}: ProjectsListProps) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, PROJECT_SEARCH_DEBOUNCE_MS);
  // The page belongs to a search: a new (debounced) search starts on page 1.
  const [paging, setPaging] = useState({ page: 1, search: '' });
  const page = paging.search === debouncedSearch ? paging.page : 1;
  const setPage = (next: number) => setPaging({ page: next, search: debouncedSearch });
  const [sort, setSort] = useState<ProjectSortKey>(DEFAULT_PROJECT_SORT);
  const [creating, setCreating] = useState(false);
  const mayCreate = canCreate && Boolean(createNamespace);

  const query = useQuery(
    paginatedProjectsQueryOptions(
      projectListParams(scope, { page, search: debouncedSearch, sort }),
    ),
  );
  // Community templates are offered to those who may create a project (spec 001 §1).
  const templates = useQuery({ ...templatesQueryOptions(), enabled: mayCreate });
  const templateList = templates.data ?? [];
  const searching = debouncedSearch.trim() !== '';
  const count = query.data?.count ?? 0;
  const onlyPublic = scope.kind === 'public';

  const emptyState = (
    <Stack align="center" gap="sm" py="xl" ta="center">
      <IconFolderOpen size={56} stroke={1.2} color="var(--mantine-color-blue-6)" aria-hidden />
      {searching ? (
        <Text>{NO_MATCHING_PROJECTS}</Text>
      ) : !namespaceKnown ? (
        <Text>{NAMESPACE_NOT_FOUND}</Text>
      ) : (
        <>
          <Text>{NO_PROJECTS_YET}</Text>
          {mayCreate ? (
            <>
              <Text c="dimmed">{START_CREATING}</Text>
              <Button onClick={() => setCreating(true)}>Create new project</Button>
            </>
          ) : (
            !onlyPublic && <Text c="dimmed">{ADMINS_CREATE_PROJECTS}</Text>
          )}
        </>
      )}
    </Stack>
  );

  return (
    <>
      <PageTitle
        actions={
          mayCreate ? <Button onClick={() => setCreating(true)}>Create project</Button> : undefined
        }
      >
        <Group component="span" gap="xs" display="inline-flex">
          {title}
          {query.data && (
            <Badge variant="light" size="lg" aria-label={`${count} projects`}>
              {count}
            </Badge>
          )}
        </Group>
      </PageTitle>
      <Group mb="md" gap="sm" wrap="nowrap">
        <TextInput
          flex={1}
          aria-label={SEARCH_PROJECTS_PLACEHOLDER}
          placeholder={SEARCH_PROJECTS_PLACEHOLDER}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        <SortMenu options={PROJECT_SORT_OPTIONS} value={sort} onChange={setSort} />
      </Group>
      {query.isPending ? (
        <LoadingIndicator label="Loading projects" />
      ) : query.isError ? (
        <Text c="dimmed" role="alert">
          {isNotSavedOffline(query.error) ? query.error.message : FETCH_PROJECTS_FALLBACK}
        </Text>
      ) : (
        <>
          <ProjectsTable
            projects={query.data.projects}
            showNamespace={showNamespace}
            showPublicTag={!onlyPublic}
            empty={emptyState}
          />
          <Paginator page={page} count={count} perPage={PROJECTS_PER_PAGE} onChange={setPage} />
        </>
      )}
      {mayCreate && templateList.length > 0 && (
        <Suspense fallback={null}>
          <TemplatesBanner onBrowse={() => setCreating(true)} />
        </Suspense>
      )}
      {mayCreate && createNamespace && (
        <NewProjectDialog
          opened={creating}
          onClose={() => setCreating(false)}
          namespace={createNamespace}
          templates={templateList}
          onCreated={(name) => {
            setCreating(false);
            void query.refetch();
            onOpenProject(createNamespace, name);
          }}
        />
      )}
    </>
  );
}
