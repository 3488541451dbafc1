import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AnchorLink } from '@/lib/routerLinks';
import { reportFormError } from '@/lib/formErrors';
import { notifySuccess } from '@/lib/notify';
import { RESET_PASSWORD_FALLBACK, useResetPasswordMutation } from '../api/resetPassword';

export const RESET_EMAIL_SENT = 'Email with password reset link was sent to your email address';

export interface ResetPasswordFormProps {
  /** Runs after the reset email was sent. */
  onSent?: () => void;
}

/** The reset-password form of /login/reset (spec 000 §2 and §5). */
export function ResetPasswordForm({ onSent }: ResetPasswordFormProps) {
  const reset = useResetPasswordMutation();
  const form = useForm({ initialValues: { email: '' } });
  const filled = form.values.email.trim() !== '';

  const submit = form.onSubmit(async ({ email }) => {
    form.clearErrors();
    try {
      await reset.mutateAsync(email);
    } catch (error) {
      reportFormError(error, ['email'], form.setErrors, RESET_PASSWORD_FALLBACK);
      return;
    }
    notifySuccess(RESET_EMAIL_SENT);
    form.reset();
    onSent?.();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          data-autofocus
          {...form.getInputProps('email')}
        />
        <Group justify="flex-end">
          <AnchorLink to="/login/{-$reset}" params={{ reset: undefined }} size="sm">
            Back to login
          </AnchorLink>
        </Group>
        <Button type="submit" disabled={!filled} loading={reset.isPending} fullWidth size="md">
          Reset password
        </Button>
      </Stack>
    </form>
  );
}
