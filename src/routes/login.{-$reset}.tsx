import { createFileRoute, notFound, useNavigate, useRouter } from '@tanstack/react-router';
import { redirectIfLoggedIn } from '@/app/guards';
import { validateLoginSearch } from '@/lib/search';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { LoginForm } from '@/features/auth/components/LoginForm';
import { SsoSignIn } from '@/features/auth/components/SsoSignIn';
import { ResetPasswordForm } from '@/features/auth/components/ResetPasswordForm';
import { useMaintenance } from '@/platform/ping';
import { OnboardingLayout } from '@/features/shell/components/OnboardingLayout';
import { safeRedirectTarget } from '@/lib/redirect';

/**
 * /login/:reset? (login, public). Signed-in users go to the dashboard; the parameter value
 * `reset` shows the reset-password form; any other value is an unknown page.
 */
export const Route = createFileRoute('/login/{-$reset}')({
  validateSearch: validateLoginSearch,
  beforeLoad: async ({ context, location, params }) => {
    if (params.reset !== undefined && params.reset !== 'reset') throw notFound();
    await redirectIfLoggedIn({ context, location });
    // The sign-in page starts without a logged user (spec 000 §4).
    context.queryClient.removeQueries({ queryKey: profileQueryOptions.queryKey });
  },
  component: LoginPage,
});

function LoginPage() {
  const { reset } = Route.useParams();
  const { redirect, sso_error: ssoError } = Route.useSearch();
  const router = useRouter();
  const navigate = useNavigate();
  const maintenance = useMaintenance();

  return (
    <OnboardingLayout
      title={reset === 'reset' ? 'Reset your password' : 'Sign in to Waymark'}
      maintenance={maintenance}
    >
      {reset === 'reset' ? (
        <ResetPasswordForm
          onSent={() => void navigate({ to: '/login/{-$reset}', params: { reset: undefined } })}
        />
      ) : (
        <>
          <LoginForm
            onSuccess={async () => {
              await router.navigate({ href: safeRedirectTarget(redirect), replace: true });
            }}
          />
          <SsoSignIn error={ssoError} redirect={redirect} />
        </>
      )}
    </OnboardingLayout>
  );
}
