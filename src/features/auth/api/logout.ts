/** GET /app/auth/logout: signs out. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api';
import { endSession } from '../model/session';

export async function logout(): Promise<void> {
  await api.get('/app/auth/logout', { fallbackMessage: 'Failed to sign out' });
}

/** Signs out; the user is cleared whatever the server answers (a lost session is signed out too). */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'logout'],
    mutationFn: logout,
    onSettled: () => endSession(queryClient),
  });
}
