import { Alert, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { TokenScope } from '@contract/personal-tokens';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CopyField } from '@/components/CopyField';
import { TitledSection } from '@/components/TitledSection';
import {
  tokensQueryOptions,
  useCreateTokenMutation,
  useRevokeTokenMutation,
  type CreatedPersonalToken,
  type PersonalToken,
} from '../api/tokens';
import { ErrorAlert } from '@/components/ErrorAlert';
import { ListTable } from '@/components/ListTable';

export const ACCESS_TOKENS_TITLE = 'Access tokens';
export const CREATE_TOKEN = 'Create token';
export const NEW_TOKEN_LABEL = 'New token';

const SCOPES: { value: TokenScope; label: string }[] = [
  { value: 'read', label: 'Read only' },
  { value: 'write', label: 'Read and write' },
];
const EXPIRIES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
];
const STATUS_COLOURS: Record<PersonalToken['status'], string> = {
  active: 'green',
  expired: 'gray',
  revoked: 'red',
};

const dateText = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');
const scopeLabel = (scope: TokenScope) => SCOPES.find((s) => s.value === scope)!.label;

/**
 * The profile's personal access tokens (issue 33): scripts and GIS clients use one instead of
 * the password. Each is shown once when made; the list shows their last use; revoking one
 * ends it at once.
 */
export function AccessTokens() {
  const list = useQuery(tokensQueryOptions);
  const create = useCreateTokenMutation();
  const revoke = useRevokeTokenMutation();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('read');
  const [days, setDays] = useState('30');
  const [created, setCreated] = useState<CreatedPersonalToken | null>(null);
  const [revoking, setRevoking] = useState<PersonalToken | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') return;
    create.mutate(
      { name: name.trim(), scope, expires_in_days: Number(days) },
      {
        onSuccess: (token) => {
          setCreated(token);
          setName('');
        },
      },
    );
  };

  return (
    <TitledSection title={ACCESS_TOKENS_TITLE}>
      <Stack gap="md">
        <Text size="sm">
          Scripts and GIS clients can sign in with a token instead of your password. A token cannot
          change your password, your email or your tokens; a read-only token cannot change any data.
        </Text>
        <form onSubmit={submit} aria-label="New access token">
          <Group align="flex-end" gap="xs">
            <TextInput
              label="Token name"
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
              maxLength={100}
              required
              style={{ flex: 1, minWidth: 160 }}
            />
            <Select
              label="Scope"
              data={SCOPES}
              value={scope}
              onChange={(value) => value && setScope(value as TokenScope)}
              allowDeselect={false}
              w={160}
            />
            <Select
              label="Expires in"
              data={EXPIRIES}
              value={days}
              onChange={(value) => value && setDays(value)}
              allowDeselect={false}
              w={120}
            />
            <Button type="submit" loading={create.isPending}>
              {CREATE_TOKEN}
            </Button>
          </Group>
        </form>
        <ErrorAlert error={create.error} />
        {created && (
          <Alert color="green" title={`Token "${created.name}" created`}>
            <Stack gap="xs">
              <Text size="sm">Copy it now: it will not be shown again.</Text>
              <CopyField label={NEW_TOKEN_LABEL} value={created.token} />
            </Stack>
          </Alert>
        )}
        <ErrorAlert error={revoke.error} />
        <ListTable
          label={ACCESS_TOKENS_TITLE}
          loadingLabel="Loading your access tokens"
          emptyText="No access tokens yet"
          pending={list.isPending}
          error={list.error}
          items={list.data?.tokens}
          headers={['Name', 'Scope', 'Expires', 'Last used', '']}
          minWidth={560}
          row={(token) => (
            <Table.Tr key={token.id}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {token.name}
                </Text>
                <Group gap={4}>
                  <Text size="xs" c="dimmed" ff="monospace">
                    {token.hint}…
                  </Text>
                  <Badge size="xs" variant="light" color={STATUS_COLOURS[token.status]}>
                    {token.status}
                  </Badge>
                </Group>
              </Table.Td>
              <Table.Td>{scopeLabel(token.scope)}</Table.Td>
              <Table.Td>{dateText(token.expires_at)}</Table.Td>
              <Table.Td>
                {dateText(token.last_used_at)}
                {token.last_used_ip && (
                  <Text size="xs" c="dimmed">
                    from {token.last_used_ip}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {token.status === 'active' && (
                  <Button
                    variant="subtle"
                    color="red"
                    size="compact-xs"
                    aria-label={`Revoke ${token.name}`}
                    loading={revoke.isPending && revoke.variables === token.id}
                    onClick={() => setRevoking(token)}
                  >
                    Revoke
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          )}
        />
      </Stack>
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking.id);
          setRevoking(null);
        }}
        title="Revoke token"
        confirmText="Revoke"
        danger
      >
        {revoking &&
          `Revoke "${revoking.name}"? Scripts and clients using it will be signed out at once.`}
      </ConfirmDialog>
    </TitledSection>
  );
}
