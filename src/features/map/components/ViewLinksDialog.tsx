import { Badge, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ViewLink } from '@contract/view-links';
import { AppDialog, DIALOG_WIDTH } from '@/components/AppDialog';
import {
  useCreateViewLinkMutation,
  useRevokeViewLinkMutation,
  viewLinksQueryOptions,
} from '../api/dataOut';
import { dateInDays, endOfDay, viewLinkUrl } from '../model/dataOut';
import { CopyField } from '@/components/CopyField';
import { ErrorAlert } from '@/components/ErrorAlert';
import { ListTable } from '@/components/ListTable';

export const VIEW_LINKS_TITLE = 'Read-only view links';
export const CREATE_LINK = 'Create link';
/** Default and longest life of a link, in days (the server allows 365). */
const DEFAULT_DAYS = 7;
const MAX_DAYS = 365;

const STATUS_COLOURS: Record<ViewLink['status'], string> = {
  active: 'green',
  expired: 'gray',
  revoked: 'red',
};

const dateText = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/**
 * An owner's read-only view links of a private project (issue 32): whoever holds one sees the
 * project's map and attribute tables, not its files or members, until the link expires or is
 * revoked; each opening is counted.
 */
export function ViewLinksDialog({
  project,
  onClose,
}: {
  project: { namespace: string; name: string };
  onClose: () => void;
}) {
  const list = useQuery(viewLinksQueryOptions(project.namespace, project.name));
  const create = useCreateViewLinkMutation(project.namespace, project.name);
  const revoke = useRevokeViewLinkMutation(project.namespace, project.name);
  const today = new Date();
  const [label, setLabel] = useState('');
  const [expires, setExpires] = useState(() => dateInDays(today, DEFAULT_DAYS));
  const [created, setCreated] = useState<ViewLink | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const expiresAt = endOfDay(expires);
    if (!expiresAt) return;
    create.mutate(
      { expires_at: expiresAt, label: label.trim() || undefined },
      {
        onSuccess: (link) => {
          setCreated(link);
          setLabel('');
        },
      },
    );
  };

  return (
    <AppDialog opened onClose={onClose} title={VIEW_LINKS_TITLE} maxWidth={DIALOG_WIDTH.share}>
      <Stack gap="md">
        <Text size="sm">
          Whoever holds a link sees this project&apos;s map and attribute tables, read-only, until
          it expires or you revoke it. Files and members stay private. Each opening is logged.
        </Text>
        <form onSubmit={submit}>
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Label (optional)"
              value={label}
              onChange={(event) => setLabel(event.currentTarget.value)}
              maxLength={200}
              style={{ flex: 1, minWidth: 160 }}
            />
            <TextInput
              type="date"
              label="Expires on"
              value={expires}
              min={dateInDays(today, 0)}
              max={dateInDays(today, MAX_DAYS - 1)}
              onChange={(event) => setExpires(event.currentTarget.value)}
              required
            />
            <Button type="submit" loading={create.isPending}>
              {CREATE_LINK}
            </Button>
          </Group>
        </form>
        <ErrorAlert error={create.error} />
        {created && (
          <CopyField label="New link" value={viewLinkUrl(window.location.origin, created.token)} />
        )}
        <ErrorAlert error={revoke.error} />
        <ListTable
          label="View links"
          loadingLabel="Loading the view links"
          emptyText="No view links yet"
          pending={list.isPending}
          error={list.error}
          items={list.data?.links}
          headers={['Link', 'Expires', 'Opened', '']}
          minWidth={480}
          row={(link) => (
            <Table.Tr key={link.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {link.label || `Link ${link.id}`}
                </Text>
                <Badge size="xs" variant="light" color={STATUS_COLOURS[link.status]}>
                  {link.status}
                </Badge>
              </Table.Td>
              <Table.Td>{dateText(link.expires_at)}</Table.Td>
              <Table.Td>
                {link.uses === 1 ? '1 time' : `${link.uses} times`}
                {link.last_used_at && (
                  <Text size="xs" c="dimmed">
                    last {dateText(link.last_used_at)}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {link.status === 'active' && (
                  <Group gap={4} wrap="nowrap">
                    <Button
                      variant="subtle"
                      size="compact-xs"
                      aria-label={`Copy ${link.label || `link ${link.id}`}`}
                      onClick={() =>
                        void navigator.clipboard?.writeText(
                          viewLinkUrl(window.location.origin, link.token),
                        )
                      }
                    >
                      Copy
                    </Button>
                    <Button
                      variant="subtle"
                      color="red"
                      size="compact-xs"
                      aria-label={`Revoke ${link.label || `link ${link.id}`}`}
                      loading={revoke.isPending && revoke.variables === link.id}
                      onClick={() => revoke.mutate(link.id)}
                    >
                      Revoke
                    </Button>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
    </AppDialog>
  );
}
