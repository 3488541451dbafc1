import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconMailExclamation, IconMailForward } from '@tabler/icons-react';
import { errorMessage } from '@/api';
import { notifyError, notifySuccess } from '@/lib/notify';
import {
  CANCEL_EMAIL_CHANGE_FALLBACK,
  EMAIL_CHANGE_CANCELLED,
  useCancelEmailChangeMutation,
} from '../api/cancelEmailChange';
import { useResendConfirmEmailMutation } from '../api/resendConfirmEmail';
import {
  confirmationSentMessage,
  PENDING_EMAIL_TITLE,
  pendingEmailText,
  resendFailureMessage,
} from '../model/account';

export interface VerifyEmailBannerProps {
  /** The account's address (it stays the one in use while a new one waits). */
  email: string;
  /** A new address waiting for its confirmation link. */
  pendingEmail?: string | null;
}

/**
 * 'Please verify your email' with 'Send confirmation email' (spec 000 §2 Profile); while a
 * new address waits for confirmation, that state instead: the link goes to the new address,
 * the account keeps its address until the link is opened, and the change can be cancelled.
 */
export function VerifyEmailBanner({ email, pendingEmail }: VerifyEmailBannerProps) {
  const resend = useResendConfirmEmailMutation();
  const cancel = useCancelEmailChangeMutation();
  const sentTo = pendingEmail || email;
  const send = () =>
    resend.mutate(undefined, {
      onSuccess: () => notifySuccess(confirmationSentMessage(sentTo)),
      onError: (error) => notifyError(resendFailureMessage(error)),
    });
  const sendButton = (
    <Button size="xs" variant="default" onClick={send} loading={resend.isPending}>
      Send confirmation email
    </Button>
  );

  if (pendingEmail) {
    return (
      <Alert
        color="blue"
        variant="light"
        icon={<IconMailForward size={20} />}
        mb="md"
        title={PENDING_EMAIL_TITLE}
      >
        <Stack gap="sm">
          <Text size="sm" style={{ wordBreak: 'break-word' }}>
            {pendingEmailText(email, pendingEmail)}
          </Text>
          <Group gap="sm">
            {sendButton}
            <Button
              size="xs"
              variant="default"
              loading={cancel.isPending}
              onClick={() =>
                cancel.mutate(undefined, {
                  onSuccess: () => notifySuccess(EMAIL_CHANGE_CANCELLED),
                  onError: (error) =>
                    notifyError(errorMessage(error, CANCEL_EMAIL_CHANGE_FALLBACK)),
                })
              }
            >
              Cancel email change
            </Button>
          </Group>
        </Stack>
      </Alert>
    );
  }

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
        {sendButton}
      </Group>
    </Alert>
  );
}
