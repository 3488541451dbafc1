/**
 * POST /app/auth/logout: signs out (a POST with the CSRF token, so no other page can sign the
 * user out; spec 000 §7 names a GET, which the server now refuses with 405). What this browser kept of the user (offline copies, the
 * upload queue, cached previews) is deleted too, whatever the server answers.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { deletePrivateData } from '@/offline/privateData';
import { endSession } from '../model/session';

export async function logout(): Promise<void> {
  await api.post('/app/auth/logout', undefined, { fallbackMessage: 'Failed to sign out' });
}

/** Signs out; the user is cleared whatever the server answers (a lost session is signed out too). */
export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'logout'],
    mutationFn: logout,
    onSettled: async () => {
      endSession(queryClient);
      await deletePrivateData();
    },
  });
}
