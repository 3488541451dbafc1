import { Anchor, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { AUDIT_ACTIONS, AUDIT_PAGE_SIZE, type AuditAction } from '@contract/audit-actions';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { Paginator } from '@/components/Paginator';
import { auditCsvUrl, auditQueryOptions, type AuditEntry, type AuditQuery } from '../api/audit';
import { ErrorAlert } from '@/components/ErrorAlert';
import { AUDIT_TITLE } from '../title';

export const EXPORT_CSV = 'Export CSV';

/** `project.made_public` → `Project made public`. */
export function actionLabel(action: string): string {
  const text = action.replace('.', ' ').replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({
  value: action,
  label: actionLabel(action),
}));

/** Start (or end) of a local calendar day as an ISO instant; undefined for none. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const date = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00.000'}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function targetText(entry: AuditEntry): string {
  if (!entry.target_type) return '';
  return entry.target ? `${entry.target_type} ${entry.target}` : entry.target_type;
}

function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(
      ([key, value]) =>
        `${key.replaceAll('_', ' ')}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`,
    )
    .join(', ');
}

interface Filter {
  user: string;
  action: AuditAction | '';
  project: string;
  from: string;
  to: string;
  workspace: string;
}

const EMPTY: Filter = { user: '', action: '', project: '', from: '', to: '', workspace: '' };

/**
 * The audit log (issue 33): who did what, when, from where, to what. Workspace admins see
 * their workspaces' entries, the superuser all; filtered by user, action, project, workspace
 * and dates, a page at a time, and exported as CSV.
 */
export function AuditLog() {
  const [draft, setDraft] = useState<Filter>(EMPTY);
  const [filter, setFilter] = useState<Filter>(EMPTY);
  const [page, setPage] = useState(1);
  const query: AuditQuery = {
    user: filter.user.trim() || undefined,
    action: filter.action || undefined,
    project: filter.project.trim() || undefined,
    from: dayBound(filter.from, false),
    to: dayBound(filter.to, true),
    workspace_id: filter.workspace ? Number(filter.workspace) : undefined,
    page,
    per_page: AUDIT_PAGE_SIZE,
  };
  const log = useQuery(auditQueryOptions(query));
  const set = (key: keyof Filter) => (value: string | null) =>
    setDraft((current) => ({ ...current, [key]: value ?? '' }));

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilter(draft);
    setPage(1);
  };

  const workspaces = log.data?.workspaces ?? [];
  return (
    <Stack gap="md">
      <form onSubmit={apply} aria-label="Filter the audit log">
        <Group align="flex-end" gap="xs">
          <TextInput
            label="User"
            value={draft.user}
            onChange={(event) => set('user')(event.currentTarget.value)}
            w={140}
          />
          <Select
            label="Action"
            data={ACTION_OPTIONS}
            value={draft.action || null}
            onChange={set('action')}
            clearable
            searchable
            placeholder="Any action"
            w={230}
          />
          <TextInput
            label="Project"
            value={draft.project}
            onChange={(event) => set('project')(event.currentTarget.value)}
            w={160}
          />
          {workspaces.length > 1 && (
            <Select
              label="Workspace"
              data={workspaces.map((w) => ({ value: String(w.id), label: w.name }))}
              value={draft.workspace || null}
              onChange={set('workspace')}
              clearable
              placeholder="All"
              w={160}
            />
          )}
          <TextInput
            type="date"
            label="From"
            value={draft.from}
            onChange={(event) => set('from')(event.currentTarget.value)}
          />
          <TextInput
            type="date"
            label="To"
            value={draft.to}
            onChange={(event) => set('to')(event.currentTarget.value)}
          />
          <Button type="submit">Filter</Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft(EMPTY);
              setFilter(EMPTY);
              setPage(1);
            }}
          >
            Clear
          </Button>
          <Button
            component="a"
            href={auditCsvUrl(query)}
            download
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            {EXPORT_CSV}
          </Button>
        </Group>
      </form>
      {log.isPending && <LoadingIndicator label="Loading the audit log" size="md" />}
      <ErrorAlert error={log.error} />
      {log.data && (
        <Text size="sm" c="dimmed" aria-live="polite">
          {log.data.total === 1 ? '1 entry' : `${log.data.total} entries`}
        </Text>
      )}
      {log.data && log.data.entries.length > 0 && (
        <Table.ScrollContainer minWidth={820}>
          <Table fz="sm" striped aria-label={AUDIT_TITLE}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Time</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Project</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>Address</Table.Th>
                <Table.Th>Details</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {new Date(entry.at).toLocaleString()}
                  </Table.Td>
                  <Table.Td>
                    {entry.actor ? (
                      <Anchor
                        component="button"
                        type="button"
                        size="sm"
                        onClick={() => {
                          const next = { ...filter, user: entry.actor! };
                          setDraft(next);
                          setFilter(next);
                          setPage(1);
                        }}
                      >
                        {entry.actor}
                      </Anchor>
                    ) : (
                      <Text size="sm" c="dimmed">
                        nobody
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{actionLabel(entry.action)}</Table.Td>
                  <Table.Td>
                    {entry.project
                      ? `${entry.workspace ? `${entry.workspace}/` : ''}${entry.project}`
                      : (entry.workspace ?? '')}
                  </Table.Td>
                  <Table.Td>{targetText(entry)}</Table.Td>
                  <Table.Td>{entry.ip ?? ''}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{detailsText(entry.details)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.data && log.data.entries.length === 0 && (
        <Text size="sm" c="dimmed">
          No entries match
        </Text>
      )}
      {log.data && (
        <Paginator
          page={page}
          count={log.data.total}
          perPage={AUDIT_PAGE_SIZE}
          onChange={setPage}
          label="Audit log pages"
        />
      )}
    </Stack>
  );
}
