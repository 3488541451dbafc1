import { Button, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { errorMessage } from '@/api';
import { requireLogin } from '@/app/guards';
import { PageTitle } from '@/components/PageTitle';
import { MyAccessRequests } from '@/features/access-requests/components/MyAccessRequests';
import { AccessTokens } from '@/features/access-tokens';
import { PROFILE_FALLBACK, profileQueryOptions } from '@/features/auth/api/profile';
import { AccountDetails } from '@/features/auth/components/AccountDetails';
import { LoadingIndicator } from '@/components/LoadingIndicator';

/** /profile (user_profile, login needed; allowed without a workspace; spec 000 §2). */
export const Route = createFileRoute('/_app/profile')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Profile' },
  component: ProfilePage,
});

function ProfilePage() {
  const profile = useQuery(profileQueryOptions);

  if (profile.isPending) {
    return <LoadingIndicator label="Loading profile" size="md" />;
  }
  if (profile.isError) {
    return (
      <>
        <PageTitle>Account details</PageTitle>
        <Stack align="flex-start">
          <Text role="alert">{errorMessage(profile.error, PROFILE_FALLBACK)}</Text>
          <Button variant="light" onClick={() => void profile.refetch()}>
            Try again
          </Button>
        </Stack>
      </>
    );
  }
  return (
    <>
      <AccountDetails profile={profile.data} />
      <MyAccessRequests />
      <AccessTokens />
    </>
  );
}
