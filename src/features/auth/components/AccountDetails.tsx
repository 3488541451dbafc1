import { Avatar, Box, Button, Group, Paper, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import { PageTitle } from '@/components/PageTitle';
import { TitledSection } from '@/components/TitledSection';
import { initials } from '@/lib/text';
import { formatDate } from '@/lib/time';
import type { Profile } from '@contract/users';
import { fullNameOf } from '../model/account';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { CloseAccountDialog } from './CloseAccountDialog';
import { EditAccountDialog } from './EditAccountDialog';
import { NotificationsSwitch } from './NotificationsSwitch';
import { VerifyEmailBanner } from './VerifyEmailBanner';

export interface AccountDetailsProps {
  profile: Profile;
}

/**
 * Profile 'Account details' (spec 000 §2): Edit account and Change password, the verify-email
 * banner, avatar, username, email, full name and registration date, and the 'Advanced' section
 * with 'Receive notifications' and 'Close account'.
 */
export function AccountDetails({ profile }: AccountDetailsProps) {
  const [editOpen, edit] = useDisclosure(false);
  const [passwordOpen, password] = useDisclosure(false);
  const [closeOpen, closeDialog] = useDisclosure(false);

  return (
    <>
      <PageTitle
        actions={
          <Group gap="sm">
            <Button variant="default" onClick={edit.open}>
              Edit account
            </Button>
            <Button variant="default" onClick={password.open}>
              Change password
            </Button>
          </Group>
        }
      >
        Account details
      </PageTitle>
      {/* An account without an address (anonymised, it cannot sign in) has none to verify. */}
      {profile.email !== null && (profile.pending_email || !profile.verified_email) && (
        <VerifyEmailBanner email={profile.email} pendingEmail={profile.pending_email} />
      )}

      <Paper withBorder radius="md" p="md" mb="lg">
        <Group gap="md" wrap="nowrap" align="center" mb="md">
          <Avatar color="blue" radius="xl" size={64} aria-hidden>
            {initials(profile.name, profile.username)}
          </Avatar>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fw={700} size="lg" style={{ wordBreak: 'break-word' }}>
              {profile.username}
            </Text>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
                {profile.email}
              </Text>
              {!profile.verified_email && (
                <Tooltip label="Email not verified" withArrow>
                  <Box
                    component="span"
                    display="inline-flex"
                    role="img"
                    aria-label="Email not verified"
                    c="orange.8"
                  >
                    <IconAlertCircle size={18} aria-hidden />
                  </Box>
                </Tooltip>
              )}
            </Group>
          </Stack>
        </Group>
        <SimpleGrid component="dl" cols={{ base: 1, xs: 2 }} spacing="md" m={0}>
          <Box>
            <Text component="dt" size="sm" c="dimmed">
              Full name
            </Text>
            <Text component="dd" m={0}>
              {fullNameOf(profile)}
            </Text>
          </Box>
          <Box>
            <Text component="dt" size="sm" c="dimmed">
              Registered
            </Text>
            <Text component="dd" m={0}>
              {formatDate(profile.registration_date) || '-'}
            </Text>
          </Box>
        </SimpleGrid>
      </Paper>

      <TitledSection title="Advanced">
        <Stack gap="lg" align="flex-start">
          <NotificationsSwitch profile={profile} />
          <Button color="red" variant="outline" onClick={closeDialog.open}>
            Close account
          </Button>
        </Stack>
      </TitledSection>

      <EditAccountDialog opened={editOpen} onClose={edit.close} profile={profile} />
      <ChangePasswordDialog opened={passwordOpen} onClose={password.close} />
      <CloseAccountDialog
        opened={closeOpen}
        onClose={closeDialog.close}
        username={profile.username}
      />
    </>
  );
}
