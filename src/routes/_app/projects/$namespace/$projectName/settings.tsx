import { Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Navigate, createFileRoute, useNavigate } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { useViewer } from '@/app/useViewer';
import { projectQueryOptions } from '@/features/projects/api/project';
import { ProjectSettings } from '@/features/projects/components/ProjectSettings';
import {
  SETTINGS_OWNER_ONLY,
  canManageProject,
  projectDeleted,
} from '@/features/projects/model/project';
import { WebhooksPanel } from '@/features/webhooks';
import { notifyInfo, notifySuccess } from '@/lib/notify';
import { useEffect } from 'react';

/**
 * .../settings (project-settings, login needed). Only the project owner may see it; others are
 * sent to /projects (spec 001 §2), told why.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/settings')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Settings' },
  component: ProjectSettingsPage,
});

function ProjectSettingsPage() {
  const { namespace, projectName } = Route.useParams();
  const viewer = useViewer();
  const navigate = useNavigate();
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data) return null;
  if (viewer.isLoading) return null;
  if (!canManageProject(project.data, viewer.workspace)) return <NotAllowed />;
  const path = `${project.data.namespace}/${project.data.name}`;
  return (
    <Stack gap="lg">
      <ProjectSettings
        project={project.data}
        onDeleted={() => {
          notifySuccess(projectDeleted(path));
          void navigate({ to: '/' });
        }}
      />
      <WebhooksPanel
        scope={{ kind: 'project', namespace: project.data.namespace, name: project.data.name }}
      />
    </Stack>
  );
}

/** Says why, then goes to /projects (spec 001 §2: the settings of others' projects redirect). */
function NotAllowed() {
  useEffect(() => {
    notifyInfo(SETTINGS_OWNER_ONLY);
  }, []);
  return <Navigate to="/projects" replace />;
}
