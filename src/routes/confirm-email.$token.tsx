import { useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { ConfirmEmailStatus } from '@/features/auth/components/ConfirmEmailStatus';
import { OnboardingLayout } from '@/features/shell/components/OnboardingLayout';

/** /confirm-email/:token (public): email confirmation. */
export const Route = createFileRoute('/confirm-email/$token')({
  component: ConfirmEmailPage,
});

function ConfirmEmailPage() {
  const { token } = Route.useParams();
  const queryClient = useQueryClient();
  const onVerified = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: profileQueryOptions.queryKey });
  }, [queryClient]);
  return (
    <OnboardingLayout title="Email confirmation">
      <ConfirmEmailStatus token={token} onVerified={onVerified} />
    </OnboardingLayout>
  );
}
