import { Alert, Button, Group, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { notifyError, notifySuccess } from '@/lib/notify';
import { useResendConfirmEmailMutation } from '../api/resendConfirmEmail';
import { confirmationSentMessage, resendFailureMessage } from '../model/account';

/** 'Please verify your email' with 'Send confirmation email' (spec 000 §2 Profile). */
export function VerifyEmailBanner({ email }: { email: string }) {
  const resend = useResendConfirmEmailMutation();
  const send = () =>
    resend.mutate(undefined, {
      onSuccess: () => notifySuccess(confirmationSentMessage(email)),
      onError: (error) => notifyError(resendFailureMessage(error)),
    });
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconMailExclamation size={20} />}
      mb="md"
      aria-label="Email verification"
    >
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={600}>
          Please verify your email
        </Text>
        <Button size="xs" variant="default" onClick={send} loading={resend.isPending}>
          Send confirmation email
        </Button>
      </Group>
    </Alert>
  );
}
