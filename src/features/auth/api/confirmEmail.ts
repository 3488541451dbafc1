/** POST /app/auth/confirm-email/:token: marks the email verified (spec 000 §4). */
import { queryOptions } from '@tanstack/react-query';
import { INVALID_TOKEN } from '@contract/protocol';
import { api } from '@/api';

export async function confirmEmail(token: string): Promise<true> {
  await api.post(`/app/auth/confirm-email/${encodeURIComponent(token)}`, undefined, {
    fallbackMessage: INVALID_TOKEN,
  });
  return true;
}

/**
 * Confirmation runs once per token when the page opens. It is idempotent on the server (an
 * already verified address answers 200), so a query (deduplicated, never refetched) fits better
 * than a mutation fired from an effect.
 */
export const confirmEmailQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'confirm-email', token] as const,
    queryFn: () => confirmEmail(token),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    meta: { silent: true },
  });
