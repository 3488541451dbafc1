import { Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AnchorLink } from '@/lib/routerLinks';
import { reportFormError } from '@/lib/formErrors';
import { CHANGE_PASSWORD_FALLBACK, useSetPasswordByTokenMutation } from '../api/setPasswordByToken';
import { NewPasswordFields } from './NewPasswordFields';

/** Set a new password from a reset link (spec 000 §2 "Change password by token"). */
export function ChangePasswordByTokenForm({ token }: { token: string }) {
  const change = useSetPasswordByTokenMutation();
  const form = useForm({ initialValues: { password: '', confirm: '' } });
  const filled = form.values.password !== '' && form.values.confirm !== '';

  const submit = form.onSubmit(async ({ password, confirm }) => {
    form.clearErrors();
    try {
      await change.mutateAsync({ token, password, confirm });
    } catch (error) {
      reportFormError(error, ['password', 'confirm'], form.setErrors, CHANGE_PASSWORD_FALLBACK);
    }
  });

  if (change.isSuccess) {
    return (
      <Text role="status">
        Your password was changed. You can now{' '}
        <AnchorLink to="/login/{-$reset}" params={{ reset: undefined }}>
          Sign in
        </AnchorLink>
      </Text>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NewPasswordFields
          label="New Password"
          autoFocus
          password={form.getInputProps('password')}
          confirm={form.getInputProps('confirm')}
        />
        <Button type="submit" disabled={!filled} loading={change.isPending} fullWidth size="md">
          Change
        </Button>
      </Stack>
    </form>
  );
}
