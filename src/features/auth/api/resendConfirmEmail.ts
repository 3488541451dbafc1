/** GET /app/auth/resend-confirm-email: mails a new email confirmation link. */
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';

export const RESEND_CONFIRM_EMAIL_FALLBACK = 'Failed to send confirmation email';

export async function resendConfirmEmail(): Promise<void> {
  await api.get('/app/auth/resend-confirm-email', {
    fallbackMessage: RESEND_CONFIRM_EMAIL_FALLBACK,
  });
}

/** A GET, but an action the user triggers: a mutation, never cached or refetched. */
export function useResendConfirmEmailMutation() {
  return useMutation({
    mutationKey: ['auth', 'resend-confirm-email'],
    mutationFn: resendConfirmEmail,
  });
}
