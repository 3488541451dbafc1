import { Stack, Text } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { useViewer } from '@/app/useViewer';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { PageTitle } from '@/components/PageTitle';
import { WorkspaceMembers } from '@/features/workspaces/components/WorkspaceMembers';
import { isWorkspaceAdmin } from '@/features/workspaces/model/roles';
import { WebhooksPanel } from '@/features/webhooks';

/** /workspaces/{name}/members (login needed): the members screen for the workspace's admins. */
export const Route = createFileRoute('/_app/workspaces/$workspace/members')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Members' },
  component: MembersPage,
});

function MembersPage() {
  const { workspace: name } = Route.useParams();
  const viewer = useViewer();
  if (viewer.isLoading) return <LoadingIndicator label="Loading members" size="md" />;
  const workspace = viewer.workspaces.find((w) => w.name.toLowerCase() === name.toLowerCase());
  return (
    <>
      <PageTitle>{`Members of ${workspace?.name ?? name}`}</PageTitle>
      {workspace && isWorkspaceAdmin(workspace.role) ? (
        <Stack gap="lg">
          <WorkspaceMembers
            key={workspace.id}
            workspace={workspace}
            viewerId={viewer.profile?.id}
          />
          <WebhooksPanel
            key={`hooks-${workspace.id}`}
            scope={{ kind: 'workspace', id: workspace.id }}
          />
        </Stack>
      ) : (
        <Text role="alert">You do not have permissions to workspace</Text>
      )}
    </>
  );
}
