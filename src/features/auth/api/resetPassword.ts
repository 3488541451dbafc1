/** POST /app/auth/reset-password {email}: mails a password reset link. */
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';

export const RESET_PASSWORD_FALLBACK = 'Failed to send password reset email';

export async function requestPasswordReset(email: string): Promise<void> {
  await api.post(
    '/app/auth/reset-password',
    { email: email.trim() },
    { fallbackMessage: RESET_PASSWORD_FALLBACK },
  );
}

export function useResetPasswordMutation() {
  return useMutation({ mutationKey: ['auth', 'reset-password'], mutationFn: requestPasswordReset });
}
