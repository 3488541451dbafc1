/** POST /app/auth/change-password {old_password, password, confirm}: changes the own password. */
import type { ChangePasswordBody } from '@contract/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';

export const CHANGE_PASSWORD_FALLBACK = 'Failed to change password';
export const PASSWORD_CHANGED = 'Password has been changed';

export interface PasswordChange {
  old_password: string;
  password: string;
  confirm: string;
}

export async function changePassword(change: PasswordChange): Promise<void> {
  await api.post(
    '/app/auth/change-password',
    {
      old_password: change.old_password,
      password: change.password,
      confirm: change.confirm,
    } satisfies ChangePasswordBody,
    { fallbackMessage: CHANGE_PASSWORD_FALLBACK },
  );
}

export function useChangePasswordMutation() {
  return useMutation({ mutationKey: ['auth', 'change-password'], mutationFn: changePassword });
}
