/** DELETE /v1/user: closes the own account (204). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { deletePrivateData } from '@/offline/privateData';
import { endSession } from '../model/session';

export const CLOSE_ACCOUNT_FALLBACK = 'Unable to close account';
export const ACCOUNT_CLOSED = 'Your account has been closed';

export async function closeAccount(): Promise<void> {
  await api.delete('/v1/user', { fallbackMessage: CLOSE_ACCOUNT_FALLBACK });
}

/** Closes the account; on success the user is cleared (spec 000 §4; the caller reloads '/'). */
export function useCloseAccountMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'close-account'],
    mutationFn: closeAccount,
    onSuccess: async () => {
      endSession(queryClient);
      // A closed account's data kept in this browser goes with it (as on sign-out).
      await deletePrivateData();
    },
  });
}
