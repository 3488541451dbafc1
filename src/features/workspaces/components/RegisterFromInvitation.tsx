import { Button, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { PasswordField } from '@/features/auth';
import { reportFormError } from '@/lib/formErrors';
import { REGISTER_FALLBACK, registerFromInvitation, type InvitationOffer } from '../api/invitation';

export interface RegisterFromInvitationProps {
  token: string;
  email: string;
  /** Called once the account exists, has joined and is signed in. */
  onRegistered: (offer: InvitationOffer) => void;
}

/** 'Create account' for the invited email: a username and a password. */
export function RegisterFromInvitation({
  token,
  email,
  onRegistered,
}: RegisterFromInvitationProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = useMutation({
    mutationFn: () => registerFromInvitation(token, { username: username.trim(), password }),
    onSuccess: (offer) => onRegistered(offer),
    onError: (error) =>
      reportFormError(error, ['username', 'password'], setErrors, REGISTER_FALLBACK),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    register.mutate();
  };
  return (
    <form onSubmit={submit} style={{ width: '100%' }}>
      <Stack gap="sm">
        <TextInput label="Email" value={email} readOnly />
        <TextInput
          label="Username"
          required
          autoComplete="username"
          value={username}
          error={errors.username}
          onChange={(event) => setUsername(event.currentTarget.value)}
        />
        <PasswordField
          label="Password"
          required
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(event) => setPassword(event.currentTarget.value)}
        />
        <Button type="submit" loading={register.isPending}>
          Create account and join
        </Button>
      </Stack>
    </form>
  );
}
