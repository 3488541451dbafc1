/** POST /app/auth/user/profile {first_name, last_name, email, receive_notifications}: edits the profile. */
import type { ProfileBody } from '@contract/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/api';
import { profileQueryOptions } from './profile';

export const EDIT_PROFILE_FALLBACK = 'Failed to change profile';
export const PROFILE_CHANGED = 'Profile has been changed';

export interface ProfileEdit {
  first_name: string;
  last_name: string;
  email: string;
  receive_notifications: boolean;
}

/** Sends the names and email trimmed (spec 000 §5); the server needs all four fields. */
export async function editProfile(edit: ProfileEdit): Promise<void> {
  await api.post(
    '/app/auth/user/profile',
    {
      first_name: edit.first_name.trim(),
      last_name: edit.last_name.trim(),
      email: edit.email.trim(),
      receive_notifications: edit.receive_notifications,
    } satisfies ProfileBody,
    { fallbackMessage: EDIT_PROFILE_FALLBACK },
  );
}

/** Edits the profile, then refetches it (a changed email is no longer verified). */
export function useEditProfileMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['auth', 'edit-profile'],
    mutationFn: editProfile,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey }),
  });
}
