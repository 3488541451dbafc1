/**
 * The signed-in user's personal access tokens (GET/POST /app/auth/tokens, DELETE
 * /app/auth/tokens/{id}; contract schemas/personal-tokens.ts).
 */
import type {
  CreatedPersonalToken,
  CreatePersonalToken,
  PersonalTokenList,
} from '@contract/personal-tokens';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';

export type { PersonalToken, CreatedPersonalToken } from '@contract/personal-tokens';

export const LOAD_TOKENS_FALLBACK = 'Failed to load your access tokens';
export const CREATE_TOKEN_FALLBACK = 'Failed to create the access token';
export const REVOKE_TOKEN_FALLBACK = 'Failed to revoke the access token';

const TOKENS_PATH = '/app/auth/tokens';
export const tokensQueryKey = ['auth', 'tokens'] as const;

export const tokensQueryOptions = queryOptions({
  queryKey: tokensQueryKey,
  queryFn: ({ signal }) =>
    api.get<PersonalTokenList>(TOKENS_PATH, { signal, fallbackMessage: LOAD_TOKENS_FALLBACK }),
  meta: { silent: true },
});

export function useCreateTokenMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'tokens', 'create'],
    mutationFn: (body: CreatePersonalToken) =>
      api.post<CreatedPersonalToken>(TOKENS_PATH, body, {
        fallbackMessage: CREATE_TOKEN_FALLBACK,
      }),
    onSettled: () => client.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}

export function useRevokeTokenMutation() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'tokens', 'revoke'],
    mutationFn: (id: number) =>
      api.delete(`${TOKENS_PATH}/${id}`, { fallbackMessage: REVOKE_TOKEN_FALLBACK }),
    onSettled: () => client.invalidateQueries({ queryKey: tokensQueryKey }),
  });
}
