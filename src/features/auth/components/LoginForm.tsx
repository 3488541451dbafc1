import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { AnchorLink } from '@/lib/routerLinks';
import { reportFormError } from '@/lib/formErrors';
import { LOGIN_FALLBACK, useLoginMutation, type LoginCredentials } from '../api/login';
import { PasswordField } from './PasswordField';

export interface LoginFormProps {
  /** Runs after the session is initialised (e.g. navigate to the redirect target). */
  onSuccess: () => void | Promise<void>;
}

/** Sign in (spec 000 §2 and §5). */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const login = useLoginMutation();
  const form = useForm<LoginCredentials>({ initialValues: { login: '', password: '' } });
  const filled = form.values.login.trim() !== '' && form.values.password.trim() !== '';

  const submit = form.onSubmit(async (values) => {
    form.clearErrors();
    try {
      await login.mutateAsync(values);
    } catch (error) {
      reportFormError(error, ['login', 'password'], form.setErrors, LOGIN_FALLBACK);
      return;
    }
    await onSuccess();
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Username or email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          {...form.getInputProps('login')}
        />
        <PasswordField
          label="Password"
          autoComplete="current-password"
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <AnchorLink to="/login/{-$reset}" params={{ reset: 'reset' }} size="sm">
            Forgot password?
          </AnchorLink>
        </Group>
        <Button type="submit" disabled={!filled} loading={login.isPending} fullWidth size="md">
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
