import { Button, Group, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AppDialog } from '@/components/AppDialog';
import { reportFormError } from '@/lib/formErrors';
import { notifySuccess } from '@/lib/notify';
import {
  CHANGE_PASSWORD_FALLBACK,
  PASSWORD_CHANGED,
  useChangePasswordMutation,
} from '../api/changePassword';
import { canChangePassword } from '../model/account';
import { PasswordField } from './PasswordField';
import { NewPasswordFields } from './NewPasswordFields';

const FIELDS = ['old_password', 'password', 'confirm'] as const;

export interface ChangePasswordDialogProps {
  opened: boolean;
  onClose: () => void;
}

/** 'Change password' of the account (spec 000 §5): all three fields needed; errors per field. */
export function ChangePasswordDialog({ opened, onClose }: ChangePasswordDialogProps) {
  return (
    <AppDialog opened={opened} onClose={onClose} title="Change password">
      {opened && <ChangePasswordForm onDone={onClose} />}
    </AppDialog>
  );
}

function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const change = useChangePasswordMutation();
  const form = useForm({ initialValues: { old_password: '', password: '', confirm: '' } });

  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    try {
      await change.mutateAsync(values);
    } catch (error) {
      reportFormError(error, FIELDS, form.setErrors, CHANGE_PASSWORD_FALLBACK);
      return;
    }
    notifySuccess(PASSWORD_CHANGED);
    onDone();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <PasswordField
          label="Old password"
          autoComplete="current-password"
          data-autofocus
          {...form.getInputProps('old_password')}
        />
        <NewPasswordFields
          label="New password"
          password={form.getInputProps('password')}
          confirm={form.getInputProps('confirm')}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button
            type="submit"
            disabled={!canChangePassword(form.values)}
            loading={change.isPending}
          >
            Save changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
