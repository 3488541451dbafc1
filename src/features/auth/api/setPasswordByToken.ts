/** POST /app/auth/reset-password/:token {password, confirm}: sets a new password from a reset link. */
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../api';

export const CHANGE_PASSWORD_FALLBACK = 'Failed to change password';

export interface SetPasswordInput {
  token: string;
  password: string;
  confirm: string;
}

export async function setPasswordByToken({
  token,
  password,
  confirm,
}: SetPasswordInput): Promise<void> {
  await api.post(
    `/app/auth/reset-password/${encodeURIComponent(token)}`,
    { password, confirm },
    { fallbackMessage: CHANGE_PASSWORD_FALLBACK },
  );
}

export function useSetPasswordByTokenMutation() {
  return useMutation({ mutationKey: ['auth', 'set-password'], mutationFn: setPasswordByToken });
}
