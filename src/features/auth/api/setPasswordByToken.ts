/** POST /app/auth/reset-password/:token {password, confirm}: sets a new password from a reset link. */
import type { NewPasswordBody } from '@contract/auth';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';
import { CHANGE_PASSWORD_FALLBACK } from './changePassword';

/** Same fallback as the account's change password (spec 000 §8). */
export { CHANGE_PASSWORD_FALLBACK };

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
    { password, confirm } satisfies NewPasswordBody,
    { fallbackMessage: CHANGE_PASSWORD_FALLBACK },
  );
}

export function useSetPasswordByTokenMutation() {
  return useMutation({ mutationKey: ['auth', 'set-password'], mutationFn: setPasswordByToken });
}
