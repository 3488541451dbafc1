import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { PageTitle } from '@/components/PageTitle';
import { TitledSection } from '@/components/TitledSection';
import { WorkspaceAccessRequests } from '@/features/access-requests/components/WorkspaceAccessRequests';
import { profileQueryOptions } from '@/features/auth/api/profile';
import { MobileAppBanner } from '@/features/dashboard/components/MobileAppBanner';
import { StorageWarning } from '@/features/dashboard/components/StorageWarning';
import { SyncTip } from '@/features/dashboard/components/SyncTip';
import { RecentProjects } from '@/features/projects/components/RecentProjects';
import { workspaceQueryOptions } from '@/features/workspaces/api/workspace';
import { useCurrentWorkspace } from '@/features/workspaces/hooks/useCurrentWorkspace';
import { isWorkspaceAdmin } from '@/features/workspaces/model/roles';
import { storagePercentage } from '@/features/workspaces/model/storage';
import { LoadingIndicator } from '@/components/LoadingIndicator';

/**
 * /dashboard (login needed; spec 000 §2): full-storage warning, the closable 'Tip from Waymark'
 * box (where spec 000 places none; docs/decisions), access requests for workspace admins,
 * 'Recent active projects' and the closable mobile-app footer.
 */
export const Route = createFileRoute('/_app/dashboard')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Dashboard', needsWorkspace: true },
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

  return (
    <>
      <PageTitle>Dashboard</PageTitle>
      <StorageWarning percentage={percentage} />
      <SyncTip serverAddress={window.location.origin} />
      {workspace && isWorkspaceAdmin(workspace.role) && (
        <TitledSection title="Access requests">
          {/* Workspace admins hold owner's rights on every project of the workspace. */}
          <WorkspaceAccessRequests namespace={workspace.name} projectRole="owner" />
        </TitledSection>
      )}
      <TitledSection title="Recent active projects">
        {workspace ? (
          <RecentProjects workspaceName={workspace.name} />
        ) : (
          <LoadingIndicator label="Loading projects" />
        )}
      </TitledSection>
      <MobileAppBanner />
    </>
  );
}
