import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AppDialog } from '@/components/AppDialog';
import { reportFormError } from '@/lib/formErrors';
import { notifySuccess } from '@/lib/notify';
import type { Profile } from '@contract/users';
import { EDIT_PROFILE_FALLBACK, PROFILE_CHANGED, useEditProfileMutation } from '../api/editProfile';
import { confirmationSentMessage, isEmailChange } from '../model/account';

const FIELDS = ['first_name', 'last_name', 'email'] as const;

export interface EditAccountDialogProps {
  opened: boolean;
  onClose: () => void;
  profile: Profile;
}

/**
 * 'Edit account' (spec 000 §2 and §5): names and email, trimmed; server errors per field. A
 * new email is only pending until its confirmation link is opened: the dialog says where the
 * link went, and the profile shows the pending state.
 */
export function EditAccountDialog({ opened, onClose, profile }: EditAccountDialogProps) {
  return (
    <AppDialog opened={opened} onClose={onClose} title="Edit account">
      {/* Mounted per opening, so the form starts from the current profile each time. */}
      {opened && <EditAccountForm profile={profile} onDone={onClose} />}
    </AppDialog>
  );
}

function EditAccountForm({ profile, onDone }: { profile: Profile; onDone: () => void }) {
  const edit = useEditProfileMutation();
  const form = useForm({
    initialValues: {
      first_name: profile.first_name ?? '',
      last_name: profile.last_name ?? '',
      email: profile.email ?? '',
    },
  });

  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    try {
      await edit.mutateAsync({ ...values, receive_notifications: profile.receive_notifications });
    } catch (error) {
      reportFormError(error, FIELDS, form.setErrors, EDIT_PROFILE_FALLBACK);
      return;
    }
    notifySuccess(PROFILE_CHANGED);
    if (isEmailChange(profile.email, values.email)) {
      notifySuccess(confirmationSentMessage(values.email.trim()));
    }
    onDone();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="First name"
          autoComplete="given-name"
          data-autofocus
          {...form.getInputProps('first_name')}
        />
        <TextInput
          label="Last name"
          autoComplete="family-name"
          {...form.getInputProps('last_name')}
        />
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          description={
            profile.pending_email
              ? `Waiting for confirmation: ${profile.pending_email}`
              : 'A new address is used once you open the link we send to it.'
          }
          {...form.getInputProps('email')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={edit.isPending}>
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
