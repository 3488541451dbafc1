import {
  Alert,
  Badge,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { WebhookEvent } from '@contract/webhook-events';
import type { Webhook } from '@contract/webhooks';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { TitledSection } from '@/components/TitledSection';
import { notifyError, notifySuccess } from '@/lib/notify';
import { deliveriesQueryOptions, useWebhookMutations, webhooksQueryOptions } from '../api/webhooks';
import {
  ADD_WEBHOOK,
  DELIVERY_STATUS_COLOURS,
  NO_DELIVERIES,
  NO_WEBHOOKS,
  SEND_TEST_EVENT,
  TEST_EVENT_QUEUED,
  WEBHOOKS_TITLE,
  WEBHOOK_EVENT_OPTIONS,
  deliveryStatusText,
  eventLabel,
  type WebhookScope,
} from '../model/webhooks';
import { ErrorAlert } from '@/components/ErrorAlert';

const dateText = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * The webhooks of a workspace (for its admins) or of a project (for its owners): the
 * addresses told of chosen events, signed with their secret (Standard Webhooks), each with
 * 'Send test event' and its delivery log.
 */
export function WebhooksPanel({ scope }: { scope: WebhookScope }) {
  const list = useQuery(webhooksQueryOptions(scope));
  const [adding, setAdding] = useState(false);
  return (
    <TitledSection
      title={WEBHOOKS_TITLE}
      actions={
        !adding && (
          <Button size="xs" onClick={() => setAdding(true)}>
            {ADD_WEBHOOK}
          </Button>
        )
      }
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {scope.kind === 'workspace'
            ? 'Other systems are told when something happens in any project of this workspace.'
            : 'Other systems are told when something happens in this project.'}{' '}
          Each message is signed with the webhook&apos;s secret (Standard Webhooks) and retried for
          a day until the address answers 2xx.
        </Text>
        {adding && <WebhookForm scope={scope} onDone={() => setAdding(false)} />}
        {list.isPending && <LoadingIndicator label="Loading the webhooks" size="sm" />}
        <ErrorAlert error={list.error} />
        {list.data && list.data.webhooks.length === 0 && !adding && (
          <Text size="sm" c="dimmed">
            {NO_WEBHOOKS}
          </Text>
        )}
        {list.data?.webhooks.map((hook) => (
          <WebhookItem key={hook.id} scope={scope} hook={hook} />
        ))}
      </Stack>
    </TitledSection>
  );
}

function WebhookForm({ scope, onDone }: { scope: WebhookScope; onDone: () => void }) {
  const { create } = useWebhookMutations(scope);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['version.created']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events, description: description.trim() || undefined },
      {
        onSuccess: () => {
          notifySuccess('Webhook added');
          onDone();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} aria-label="New webhook">
      <Stack gap="sm">
        <TextInput
          label="Payload URL"
          placeholder="https://example.org/waymark-events"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          required
          type="url"
          maxLength={2000}
        />
        <TextInput
          label="Description (optional)"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          maxLength={200}
        />
        <Checkbox.Group
          label="Events"
          value={events}
          onChange={(value) => setEvents(value as WebhookEvent[])}
          error={events.length === 0 ? 'Choose at least one event' : undefined}
        >
          <Stack gap={4} mt={4}>
            {WEBHOOK_EVENT_OPTIONS.map((option) => (
              <Checkbox key={option.value} value={option.value} label={option.label} />
            ))}
          </Stack>
        </Checkbox.Group>
        <ErrorAlert error={create.error} />
        <Group gap="xs">
          <Button type="submit" loading={create.isPending} disabled={events.length === 0}>
            Save webhook
          </Button>
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function WebhookItem({ scope, hook }: { scope: WebhookScope; hook: Webhook }) {
  const { update, remove, test } = useWebhookMutations(scope);
  const [showLog, setShowLog] = useState(false);
  const [showSecret, setShowSecret] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const label = hook.description || hook.url;
  return (
    <Stack
      gap="xs"
      p="sm"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
      aria-label={`Webhook ${label}`}
      role="group"
    >
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {hook.url}
          </Text>
          {hook.description && (
            <Text size="sm" c="dimmed">
              {hook.description}
            </Text>
          )}
        </Stack>
        <Switch
          label="Active"
          checked={hook.active}
          onChange={(e) => update.mutate({ id: hook.id, active: e.currentTarget.checked })}
        />
      </Group>
      <Group gap={4}>
        {hook.events.map((event) => (
          <Badge key={event} variant="light">
            {eventLabel(event)}
          </Badge>
        ))}
      </Group>
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant="default"
          loading={test.isPending}
          onClick={() =>
            test.mutate(hook.id, {
              onSuccess: () => {
                notifySuccess(TEST_EVENT_QUEUED);
                setShowLog(true);
              },
              onError: (error) => notifyError(error.message),
            })
          }
        >
          {SEND_TEST_EVENT}
        </Button>
        <Button size="xs" variant="default" onClick={() => setShowLog((v) => !v)}>
          {showLog ? 'Hide deliveries' : 'Show deliveries'}
        </Button>
        <Button size="xs" variant="default" onClick={() => setShowSecret((v) => !v)}>
          {showSecret ? 'Hide secret' : 'Show secret'}
        </Button>
        <Button size="xs" color="red" variant="light" onClick={() => setConfirmDelete(true)}>
          Delete
        </Button>
      </Group>
      {showSecret && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            label="Signing secret"
            value={hook.secret}
            readOnly
            style={{ flex: 1 }}
            onFocus={(e) => e.currentTarget.select()}
          />
          <CopyButton value={hook.secret}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button
            variant="default"
            loading={update.isPending}
            onClick={() => update.mutate({ id: hook.id, rotate_secret: true })}
          >
            New secret
          </Button>
        </Group>
      )}
      <ErrorAlert error={update.error} />
      {showLog && <DeliveryLog id={hook.id} />}
      <ConfirmDialog
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        onConfirm={() =>
          remove.mutate(hook.id, {
            onSuccess: () => {
              setConfirmDelete(false);
              notifySuccess('Webhook deleted');
            },
            onError: (error) => notifyError(error.message),
          })
        }
        title="Delete webhook"
        confirmText="Delete"
        danger
        loading={remove.isPending}
      >
        {`Messages not yet sent to ${hook.url} are dropped.`}
      </ConfirmDialog>
    </Stack>
  );
}

function DeliveryLog({ id }: { id: number }) {
  const log = useQuery(deliveriesQueryOptions(id));
  if (log.isPending) return <LoadingIndicator label="Loading the deliveries" size="sm" />;
  if (log.isError)
    return (
      <Alert color="red" role="alert">
        {log.error.message}
      </Alert>
    );
  if (log.data.deliveries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {NO_DELIVERIES}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table fz="sm" aria-label="Deliveries">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Time</Table.Th>
            <Table.Th>Response</Table.Th>
            <Table.Th>Attempts</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {log.data.deliveries.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>{eventLabel(delivery.event)}</Table.Td>
              <Table.Td>
                <Badge color={DELIVERY_STATUS_COLOURS[delivery.status]} variant="light">
                  {deliveryStatusText(delivery)}
                </Badge>
              </Table.Td>
              <Table.Td>{dateText(delivery.last_attempt_at ?? delivery.created_at)}</Table.Td>
              <Table.Td title={delivery.error ?? undefined}>
                {delivery.response_code ?? (delivery.error ? 'No answer' : '—')}
              </Table.Td>
              <Table.Td>{delivery.attempts}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
