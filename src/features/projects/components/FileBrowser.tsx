import {
  ActionIcon,
  Badge,
  Group,
  SegmentedControl,
  Table,
  Text,
  TextInput,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowBackUp, IconSearch, IconTrash } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { parentFolder } from '@/lib/paths';
import { Paginator } from '@/components/Paginator';
import { SortMenu } from '@/components/SortMenu';
import { formatFileSize } from '@/lib/fileSize';
import { LazyTooltip } from '@/components/lazyTooltip';
import { AnchorLink } from '@/lib/routerLinks';
import { formatDateTime, relativeTime } from '@/lib/time';
import {
  DELETE_FILE,
  DELETE_FOLDER,
  UNDO_CHANGE,
  FILE_CHANGE_COLORS,
  FILE_CHANGE_LABELS,
  FILES_PER_PAGE,
  FILE_SORT_OPTIONS,
  NO_FILES_FOUND,
  SEARCH_FILES_PLACEHOLDER,
  buildFolderIndex,
  listChanges,
  listFolder,
  normaliseFolder,
  pageOf,
  sortEntries,
  type FileChangeKind,
  type FileEntry,
  type FileSortKey,
  type ListedFile,
} from '../model/files';
import { FileIcon } from './FileIcon';

export interface FileBrowserProps {
  namespace: string;
  projectName: string;
  files: readonly ListedFile[];
  /** The folder shown ('' for the project root). */
  location: string;
  /** Pending changes by path: state badges and the 'diff' filter. */
  changes?: ReadonlyMap<string, FileChangeKind>;
  /** Stages the deletion of a file or a folder (shown with upload permission). */
  onDelete?: (path: string, isFolder: boolean) => void;
  /** Undoes the pending change of a file (in place of its delete action; issue 31). */
  onRevert?: (path: string) => void;
  /** Files whose change `onRevert` can undo (pending ones, not those of queued uploads). */
  revertable?: ReadonlySet<string>;
}

export type FileFilter = 'all' | 'diff';

/** Labels of the filter between all files and the pending changes ('diff'). */
export const FILE_FILTER_LABELS: Record<FileFilter, string> = {
  all: 'All files',
  diff: 'Pending changes',
};

/** The project's files, folder by folder (spec 001 §2 "File browser"). */
export function FileBrowser({
  namespace,
  projectName,
  files,
  location,
  changes,
  onDelete,
  onRevert,
  revertable,
}: FileBrowserProps) {
  const navigate = useNavigate();
  const folder = normaliseFolder(location);
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<FileSortKey>('name');
  const [chosenFilter, setFilter] = useState<FileFilter>('all');
  const hasChanges = (changes?.size ?? 0) > 0;
  const filter: FileFilter = hasChanges ? chosenFilter : 'all';
  const [paging, setPaging] = useState({ page: 1, key: '' });
  const pagingKey = `${folder}\n${search}\n${sort}\n${filter}`;
  const page = paging.key === pagingKey ? paging.page : 1;

  // Indexed once per file list; a folder listing is then a lookup.
  const index = useMemo(() => buildFolderIndex(files), [files]);
  const entries = useMemo(
    () =>
      sortEntries(
        filter === 'diff' && changes
          ? listChanges(files, changes, folder, search)
          : listFolder(index, folder, search),
        sort,
      ),
    [index, files, changes, filter, folder, search, sort],
  );
  const columns = onDelete ? 4 : 3;
  const shown = pageOf(entries, page, FILES_PER_PAGE);
  const params = { namespace, projectName };

  const open = (entry: FileEntry) => {
    if (entry.type === 'folder') {
      void navigate({
        to: '/projects/$namespace/$projectName/tree/$',
        params: { ...params, _splat: entry.path },
      });
    } else {
      void navigate({
        to: '/projects/$namespace/$projectName/blob/$',
        params: { ...params, _splat: entry.path },
      });
    }
  };

  return (
    <>
      {/* The filter sits beside the search, so showing it moves no row (issue 31: the first
          'Delete file' pushed the rows down, and a second press deleted another file). */}
      <Group mb="md" gap="sm" wrap="nowrap">
        <TextInput
          flex={1}
          miw={0}
          aria-label={SEARCH_FILES_PLACEHOLDER}
          placeholder={SEARCH_FILES_PLACEHOLDER}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
        />
        {hasChanges && (
          <SegmentedControl
            aria-label="Filter files"
            value={filter}
            onChange={(value) => setFilter(value as FileFilter)}
            data={(['all', 'diff'] as const).map((value) => ({
              value,
              label: FILE_FILTER_LABELS[value],
            }))}
          />
        )}
        <SortMenu options={FILE_SORT_OPTIONS} value={sort} onChange={setSort} />
      </Group>
      <Table.ScrollContainer minWidth={480}>
        <Table highlightOnHover verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Modified</Table.Th>
              <Table.Th>Size</Table.Th>
              {onDelete && (
                // A fixed width: a row's action stays where it was when a badge widens a name.
                <Table.Th w={52}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {folder !== '' && (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Group gap="xs" wrap="nowrap">
                    <IconArrowBackUp size={18} stroke={1.5} aria-hidden />
                    <AnchorLink
                      to="/projects/$namespace/$projectName/tree/$"
                      params={{ ...params, _splat: parentFolder(folder) }}
                      size="sm"
                      aria-label="Parent folder"
                    >
                      ..
                    </AnchorLink>
                  </Group>
                </Table.Td>
              </Table.Tr>
            )}
            {shown.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text size="sm" c="dimmed" ta="center" py="md">
                    {NO_FILES_FOUND}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {shown.map((entry) => (
              <Table.Tr
                key={`${entry.type}:${entry.path}`}
                style={{ cursor: 'pointer' }}
                onClick={(event) => {
                  if ((event.target as HTMLElement).closest('a')) return;
                  open(entry);
                }}
              >
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <FileIcon entry={entry} />
                    <AnchorLink
                      to={
                        entry.type === 'folder'
                          ? '/projects/$namespace/$projectName/tree/$'
                          : '/projects/$namespace/$projectName/blob/$'
                      }
                      params={{ ...params, _splat: entry.path }}
                      size="sm"
                      style={{ wordBreak: 'break-all' }}
                    >
                      {entry.name}
                    </AnchorLink>
                    {entry.type === 'file' && changes?.get(entry.path) && (
                      <ChangeBadge change={changes.get(entry.path) as FileChangeKind} />
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  {entry.mtime && (
                    // For a mouse only: a tooltip opened by a tap would stay (issue 31).
                    <LazyTooltip label={formatDateTime(entry.mtime)} withArrow>
                      <Text component="time" dateTime={entry.mtime} size="sm">
                        {relativeTime(entry.mtime)}
                      </Text>
                    </LazyTooltip>
                  )}
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{formatFileSize(entry.size)}</Text>
                </Table.Td>
                {onDelete && (
                  <Table.Td>
                    {entry.type === 'file' && onRevert && revertable?.has(entry.path) ? (
                      // In the delete action's place: pressed again, it undoes, never deletes
                      // another file.
                      <Tooltip label={UNDO_CHANGE} withArrow>
                        <ActionIcon
                          variant="subtle"
                          aria-label={`${UNDO_CHANGE} ${entry.name}`}
                          onClick={(event) => {
                            event.stopPropagation();
                            onRevert(entry.path);
                          }}
                        >
                          <IconArrowBackUp size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    ) : (
                      (entry.type === 'folder' || changes?.get(entry.path) !== 'removed') && (
                        <Tooltip
                          label={entry.type === 'folder' ? DELETE_FOLDER : DELETE_FILE}
                          withArrow
                        >
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`${entry.type === 'folder' ? DELETE_FOLDER : DELETE_FILE} ${entry.name}`}
                            onClick={(event) => {
                              // Not also the row's own click (opening the file or folder).
                              event.stopPropagation();
                              onDelete(entry.path, entry.type === 'folder');
                            }}
                          >
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      )
                    )}
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Paginator
        page={page}
        count={entries.length}
        perPage={FILES_PER_PAGE}
        onChange={(next) => setPaging({ page: next, key: pagingKey })}
        label="Files pagination"
      />
    </>
  );
}

/** The state badge of a pending change (New file, Modified file, Deleted file). */
export function ChangeBadge({ change }: { change: FileChangeKind }) {
  return (
    <Badge size="sm" variant="filled" color={FILE_CHANGE_COLORS[change]} style={{ flexShrink: 0 }}>
      {FILE_CHANGE_LABELS[change]}
    </Badge>
  );
}
