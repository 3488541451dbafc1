import { Button, Group, Tabs } from '@mantine/core';
import { IconCopy, IconDownload, IconLogout } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { errorMessage } from '@/api';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { PageTitle } from '@/components/PageTitle';
import { notifyError, notifySuccess } from '@/lib/notify';
import { OfflineReason } from '@/offline/components/OfflineReason';
import { useOnline } from '@/offline/useOnline';
import { fetchProject, projectQueryKey, projectQueryOptions } from '../api/project';
import { projectArchiveUrl } from '../api/projectArchive';
import { useRequestAccessMutation } from '../api/requestAccess';
import {
  ACCESS_REQUESTED,
  REQUEST_ACCESS_FALLBACK,
  canLeaveProject,
  canManageProject,
  hasGeoPackage,
  projectFailure,
  projectTabOf,
  visibleTabs,
  type ProjectTab,
} from '../model/project';
import { CloneProjectDialog } from './CloneProjectDialog';
import { LeaveProjectDialog } from './LeaveProjectDialog';
import { ProjectFailureScreen } from './ProjectFailureScreen';

export interface ProjectViewProps {
  namespace: string;
  projectName: string;
  loggedIn: boolean;
  /** The current workspace of the logged user. */
  workspace: { id: number; name: string; role: string } | null;
  /** Whether the user may create (and so clone) projects. */
  canCreate: boolean;
  /** Sends an anonymous visitor to sign in (a private project answered 403). */
  onLoginNeeded: () => void;
  /** A tab is about to be opened (pointer over it, focus, press): its data may be fetched. */
  onTabIntent?: (tab: ProjectTab) => void;
  children?: ReactNode;
}

const TAB_LABELS: Record<ProjectTab, string> = {
  files: 'Files',
  map: 'Map',
  history: 'History',
  collaborators: 'Collaborators',
  settings: 'Settings',
};

const TAB_ROUTES = {
  files: '/projects/$namespace/$projectName/tree/$',
  map: '/projects/$namespace/$projectName/map',
  history: '/projects/$namespace/$projectName/history',
  collaborators: '/projects/$namespace/$projectName/collaborators',
  settings: '/projects/$namespace/$projectName/settings',
} as const;

/** The project view: title, Download / Clone / Leave, tabs and failure screens (spec 001 §2). */
export function ProjectView({
  namespace,
  projectName,
  loggedIn,
  workspace,
  canCreate,
  onLoginNeeded,
  onTabIntent,
  children,
}: ProjectViewProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  // The query key holds namespace and name: another project in the route fetches afresh.
  const query = useQuery(projectQueryOptions(namespace, projectName, loggedIn));
  const requestAccess = useRequestAccessMutation();
  const [cloning, setCloning] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const online = useOnline();

  const failure = query.isError ? projectFailure(query.error) : null;
  const mustLogin = failure === 'forbidden' && !loggedIn;
  const sentToLogin = useRef(false);
  useEffect(() => {
    if (!mustLogin || sentToLogin.current) return;
    sentToLogin.current = true;
    onLoginNeeded();
  }, [mustLogin, onLoginNeeded]);

  const title = `${namespace}/${projectName}`;

  if (query.isPending || mustLogin) {
    return (
      <>
        <PageTitle>{title}</PageTitle>
        <LoadingIndicator label="Loading project" size="md" />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        <PageTitle>{title}</PageTitle>
        <ProjectFailureScreen
          failure={failure ?? 'other'}
          message={query.error.message}
          requesting={requestAccess.isPending}
          onRequestAccess={() =>
            requestAccess.mutate(
              { namespace, name: projectName },
              {
                onSuccess: () => {
                  notifySuccess(ACCESS_REQUESTED);
                  void navigate({ to: '/projects' });
                },
                onError: (error) => notifyError(errorMessage(error, REQUEST_ACCESS_FALLBACK)),
              },
            )
          }
        />
      </>
    );
  }

  const project = query.data;
  const params = { namespace, projectName };
  const tabs = visibleTabs(
    loggedIn,
    canManageProject(project, workspace),
    hasGeoPackage(project.files),
  );
  const active = projectTabOf(pathname, namespace, projectName);

  const afterLeaving = async () => {
    try {
      await fetchProject(namespace, projectName, loggedIn);
      await queryClient.invalidateQueries({ queryKey: projectQueryKey(namespace, projectName) });
    } catch {
      // The project is gone for this user.
      queryClient.removeQueries({ queryKey: projectQueryKey(namespace, projectName) });
      void navigate({ to: '/dashboard' });
    }
  };

  return (
    <>
      <PageTitle
        actions={
          <Group gap="xs">
            <OfflineReason offline={!online}>
              {online ? (
                <Button
                  component="a"
                  href={projectArchiveUrl(namespace, projectName)}
                  download
                  variant="default"
                  leftSection={<IconDownload size={16} aria-hidden />}
                >
                  Download
                </Button>
              ) : (
                <Button
                  disabled
                  variant="default"
                  leftSection={<IconDownload size={16} aria-hidden />}
                >
                  Download
                </Button>
              )}
            </OfflineReason>
            {loggedIn && canCreate && (
              <OfflineReason offline={!online}>
                <Button
                  variant="default"
                  leftSection={<IconCopy size={16} aria-hidden />}
                  disabled={!online}
                  onClick={() => setCloning(true)}
                >
                  Clone
                </Button>
              </OfflineReason>
            )}
            {loggedIn && canLeaveProject(project, workspace) && (
              <OfflineReason offline={!online}>
                <Button
                  variant="default"
                  color="red"
                  leftSection={<IconLogout size={16} aria-hidden />}
                  disabled={!online}
                  onClick={() => setLeaving(true)}
                >
                  Leave project
                </Button>
              </OfflineReason>
            )}
          </Group>
        }
      >
        {title}
      </PageTitle>
      <Tabs
        value={active}
        mb="md"
        onChange={(value) => {
          const tab = (value ?? 'files') as ProjectTab;
          if (tab === 'files')
            void navigate({ to: TAB_ROUTES.files, params: { ...params, _splat: '' } });
          else void navigate({ to: TAB_ROUTES[tab], params });
        }}
      >
        <Tabs.List>
          {tabs.map((tab) => (
            <Tabs.Tab
              key={tab}
              value={tab}
              onPointerEnter={() => onTabIntent?.(tab)}
              onPointerDown={() => onTabIntent?.(tab)}
              onFocus={() => onTabIntent?.(tab)}
            >
              {TAB_LABELS[tab]}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {children}
      {loggedIn && canCreate && (
        <CloneProjectDialog
          opened={cloning}
          onClose={() => setCloning(false)}
          namespace={namespace}
          name={projectName}
          targetNamespace={workspace?.name ?? null}
          onCloned={(targetNamespace, name) => {
            setCloning(false);
            void navigate({
              to: '/projects/$namespace/$projectName',
              params: { namespace: targetNamespace, projectName: name },
            });
          }}
        />
      )}
      <LeaveProjectDialog
        opened={leaving}
        onClose={() => setLeaving(false)}
        project={{ id: project.id, namespace, name: projectName }}
        onLeft={() => void afterLeaving()}
      />
    </>
  );
}
