import { Switch } from '@mantine/core';
import { errorMessage } from '@/api';
import { notifyError, notifySuccess } from '@/lib/notify';
import type { Profile } from '@contract/users';
import { EDIT_PROFILE_FALLBACK, PROFILE_CHANGED, useEditProfileMutation } from '../api/editProfile';

/**
 * 'Receive notifications' (spec 000 §2 and §4): toggling saves the flag through the profile
 * edit, which sends the names and email along.
 */
export function NotificationsSwitch({ profile }: { profile: Profile }) {
  const edit = useEditProfileMutation();
  const checked = edit.isPending
    ? (edit.variables?.receive_notifications ?? profile.receive_notifications)
    : profile.receive_notifications;

  return (
    <Switch
      label="Receive notifications"
      // The description sits inside Mantine's <label>; keep it out of the name (it is the
      // switch's description through aria-describedby).
      aria-label="Receive notifications"
      description="We will send you information about workspace activity"
      checked={checked}
      disabled={edit.isPending}
      onChange={(event) =>
        edit.mutate(
          {
            first_name: profile.first_name ?? '',
            last_name: profile.last_name ?? '',
            email: profile.email ?? '',
            receive_notifications: event.currentTarget.checked,
          },
          {
            onSuccess: () => notifySuccess(PROFILE_CHANGED),
            onError: (error) => notifyError(errorMessage(error, EDIT_PROFILE_FALLBACK)),
          },
        )
      }
    />
  );
}
