import { Loader, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ButtonLink } from '../../../lib/routerLinks';
import { useEffect } from 'react';
import { confirmEmailQueryOptions, INVALID_TOKEN } from '../api/confirmEmail';

export const EMAIL_VERIFIED = 'Your email address has been verified.';

export interface ConfirmEmailStatusProps {
  token: string;
  /** Runs once the address is verified (e.g. refresh the logged user's profile). */
  onVerified?: () => void;
}

/** Email confirmation (spec 000 §2 and §4): verified, or 'Invalid token'. */
export function ConfirmEmailStatus({ token, onVerified }: ConfirmEmailStatusProps) {
  const confirmation = useQuery(confirmEmailQueryOptions(token));
  const verified = confirmation.isSuccess;

  useEffect(() => {
    if (verified) onVerified?.();
  }, [verified, onVerified]);

  if (confirmation.isPending) {
    return (
      <Stack align="center">
        <Loader aria-label="Verifying" />
      </Stack>
    );
  }

  return (
    <Stack align="center" gap="md" ta="center">
      {verified ? (
        <IconCircleCheck size={56} color="var(--mantine-color-green-7)" aria-hidden />
      ) : (
        <IconCircleX size={56} color="var(--mantine-color-red-7)" aria-hidden />
      )}
      <Text fw={600} size="lg" role="status">
        {verified ? EMAIL_VERIFIED : INVALID_TOKEN}
      </Text>
      <ButtonLink to="/">Continue</ButtonLink>
    </Stack>
  );
}
