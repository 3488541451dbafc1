import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../../app/guards';
import { PageTitle } from '../../features/shell/components/PageTitle';

/** /profile (user_profile, login needed; allowed without a workspace). */
export const Route = createFileRoute('/_app/profile')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Profile' },
  component: ProfilePage,
});

function ProfilePage() {
  return <PageTitle>Account details</PageTitle>;
}
