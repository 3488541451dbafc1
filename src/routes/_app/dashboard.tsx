import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../../app/guards';
import { profileQueryOptions } from '../../features/auth/api/profile';
import { StorageWarning } from '../../features/dashboard/components/StorageWarning';
import { workspaceQueryOptions } from '../../features/workspaces/api/workspace';
import { useCurrentWorkspace } from '../../features/workspaces/hooks/useCurrentWorkspace';
import { storagePercentage } from '../../features/workspaces/model/storage';

/** /dashboard (login needed): header, sidebar, breadcrumb Dashboard. */
export const Route = createFileRoute('/_app/dashboard')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Dashboard' },
  component: DashboardPage,
});

function DashboardPage() {
  const profile = useQuery(profileQueryOptions);
  const { workspace } = useCurrentWorkspace(profile.data);
  // Fresh storage figures of the current workspace.
  const details = useQuery({
    ...workspaceQueryOptions(workspace?.id ?? -1),
    enabled: workspace != null,
  });
  const figures = details.data ?? workspace;
  const percentage = storagePercentage(figures?.disk_usage, figures?.storage);

  return <StorageWarning percentage={percentage} />;
}
