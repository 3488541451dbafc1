import { Button, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { INVALID_TOKEN } from '@contract/protocol';
import { confirmEmailQueryOptions } from '../api/confirmEmail';

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
  const navigate = useNavigate();

  useEffect(() => {
    if (verified) onVerified?.();
  }, [verified, onVerified]);

  if (confirmation.isPending) {
    return <LoadingIndicator label="Verifying" size="md" />;
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
      {/* A button to continue to home (spec 000 §2): '/' leads on to the dashboard or sign-in. */}
      <Button onClick={() => void navigate({ to: '/' })}>Continue</Button>
    </Stack>
  );
}
