/**
 * The webhook calls (server/src/schemas/webhooks.ts): a workspace's (admins) or a project's
 * (owners) webhooks, their changes, 'Send test event' and the delivery log.
 */
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CreateWebhook,
  UpdateWebhook,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
} from '@contract/webhooks';
import { api } from '@/api';
import type { WebhookScope } from '../model/webhooks';

export const LOAD_WEBHOOKS_FALLBACK = 'Failed to load the webhooks';
export const SAVE_WEBHOOK_FALLBACK = 'Failed to save the webhook';
export const DELETE_WEBHOOK_FALLBACK = 'Failed to delete the webhook';
export const TEST_WEBHOOK_FALLBACK = 'Failed to send the test event';
export const LOAD_DELIVERIES_FALLBACK = 'Failed to load the deliveries';

const enc = encodeURIComponent;

function scopePath(scope: WebhookScope): string {
  return scope.kind === 'workspace'
    ? `/app/workspaces/${scope.id}/webhooks`
    : `/app/project/webhooks/${enc(scope.namespace)}/${enc(scope.name)}`;
}

const scopeKey = (scope: WebhookScope) =>
  scope.kind === 'workspace'
    ? (['webhooks', 'workspace', scope.id] as const)
    : (['webhooks', 'project', scope.namespace, scope.name] as const);

export const webhooksQueryOptions = (scope: WebhookScope) =>
  queryOptions({
    queryKey: scopeKey(scope),
    queryFn: ({ signal }) =>
      api.get<WebhookList>(scopePath(scope), { signal, fallbackMessage: LOAD_WEBHOOKS_FALLBACK }),
    meta: { silent: true },
  });

/** The delivery log; refreshed while a message is pending. */
export const deliveriesQueryOptions = (id: number) =>
  queryOptions({
    queryKey: ['webhooks', 'deliveries', id] as const,
    queryFn: ({ signal }) =>
      api.get<WebhookDeliveryList>(`/app/webhooks/${id}/deliveries`, {
        signal,
        fallbackMessage: LOAD_DELIVERIES_FALLBACK,
      }),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false,
    meta: { silent: true },
  });

export function useWebhookMutations(scope: WebhookScope) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['webhooks'] });
  const create = useMutation({
    mutationKey: ['webhooks', 'create'],
    mutationFn: (body: CreateWebhook) =>
      api.post<Webhook>(scopePath(scope), body, { fallbackMessage: SAVE_WEBHOOK_FALLBACK }),
    onSettled: refresh,
  });
  const update = useMutation({
    mutationKey: ['webhooks', 'update'],
    mutationFn: ({ id, ...body }: UpdateWebhook & { id: number }) =>
      api.patch<Webhook>(`/app/webhooks/${id}`, body, { fallbackMessage: SAVE_WEBHOOK_FALLBACK }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationKey: ['webhooks', 'delete'],
    mutationFn: (id: number) =>
      api.delete(`/app/webhooks/${id}`, { fallbackMessage: DELETE_WEBHOOK_FALLBACK }),
    onSettled: refresh,
  });
  const test = useMutation({
    mutationKey: ['webhooks', 'test'],
    mutationFn: (id: number) =>
      api.post<WebhookDelivery>(`/app/webhooks/${id}/test`, undefined, {
        fallbackMessage: TEST_WEBHOOK_FALLBACK,
      }),
    onSettled: refresh,
  });
  return { create, update, remove, test };
}
