/** DELETE /app/auth/user/pending-email: drops the new address waiting for confirmation (204). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { profileQueryOptions } from './profile';

export const CANCEL_EMAIL_CHANGE_FALLBACK = 'Failed to cancel the email change';
export const EMAIL_CHANGE_CANCELLED = 'Email change cancelled';

export async function cancelEmailChange(): Promise<void> {
  await api.delete('/app/auth/user/pending-email', {
    fallbackMessage: CANCEL_EMAIL_CHANGE_FALLBACK,
  });
}

/** Cancels the pending email change, then refetches the profile. */
export function useCancelEmailChangeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'cancel-email-change'],
    mutationFn: cancelEmailChange,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey }),
  });
}
