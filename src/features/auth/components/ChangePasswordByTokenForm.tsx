import { Box, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AnchorLink } from '@/lib/routerLinks';
import { reportFormError } from '@/lib/formErrors';
import { CHANGE_PASSWORD_FALLBACK, useSetPasswordByTokenMutation } from '../api/setPasswordByToken';
import { PasswordField } from './PasswordField';
import { PasswordRuleHint } from './PasswordRuleHint';

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
        <Box pos="relative">
          <PasswordField
            label="New Password"
            autoComplete="new-password"
            data-autofocus
            {...form.getInputProps('password')}
          />
          {/* Beside the label, not inside it, so the field's accessible name stays 'New Password'. */}
          <Box pos="absolute" top={0} right={0}>
            <PasswordRuleHint />
          </Box>
        </Box>
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          {...form.getInputProps('confirm')}
        />
        <Button type="submit" disabled={!filled} loading={change.isPending} fullWidth size="md">
          Change
        </Button>
      </Stack>
    </form>
  );
}
