import { createFileRoute } from '@tanstack/react-router';
import { ChangePasswordByTokenForm } from '@/features/auth/components/ChangePasswordByTokenForm';
import { useMaintenance } from '@/platform/ping';
import { OnboardingLayout } from '@/features/shell/components/OnboardingLayout';

/** /change-password/:token (public): set a new password from a reset link. */
export const Route = createFileRoute('/change-password/$token')({
  component: ChangePasswordPage,
});

function ChangePasswordPage() {
  const { token } = Route.useParams();
  const maintenance = useMaintenance();
  return (
    <OnboardingLayout title="Set a new password" maintenance={maintenance}>
      <ChangePasswordByTokenForm token={token} />
    </OnboardingLayout>
  );
}
