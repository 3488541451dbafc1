/** POST /app/auth/login {login, password}: signs in (200 with an empty body). */
import type { LoginBody } from '@contract/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { initialiseSession } from '../model/session';

export interface LoginCredentials {
  login: string;
  password: string;
}

export const LOGIN_FALLBACK = 'Failed to login';

/** Sends the trimmed credentials (spec 000 §5). */
export async function login(credentials: LoginCredentials): Promise<void> {
  await api.post(
    '/app/auth/login',
    {
      login: credentials.login.trim(),
      password: credentials.password.trim(),
    } satisfies LoginBody,
    { fallbackMessage: LOGIN_FALLBACK },
  );
}

/** Signs in, then initialises the app for the new session before resolving. */
export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'login'],
    mutationFn: login,
    onSuccess: () => initialiseSession(queryClient),
  });
}
