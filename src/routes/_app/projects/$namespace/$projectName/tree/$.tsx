import { Box, Group } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { pathCrumbs } from '@/app/breadcrumbs';
import { validateProjectTreeSearch } from '@/lib/search';
import { useViewer } from '@/app/useViewer';
import { configQueryOptions } from '@/platform/config';
import { projectQueryOptions } from '@/features/projects/api/project';
import { FileBrowser } from '@/features/projects/components/FileBrowser';
import { FileDetailPanel } from '@/features/projects/components/FileDetailPanel';
import { normaliseFolder } from '@/features/projects/model/files';
import type { ProjectDetail } from '@contract/projects';
import {
  DATA_SYNC_BESIDE,
  DATA_SYNC_COLUMN,
  ProjectDataSync,
} from '@/features/uploads/page/components/ProjectDataSync';
import { UploadArea } from '@/features/uploads/page/components/UploadArea';
import { UploadDropZone } from '@/features/uploads/page/components/UploadDropZone';
import { CANNOT_UPDATE_DURING_UPLOAD } from '@/features/uploads/model/texts';
import { useProjectUploads } from '@/features/uploads/page/state/useProjectUploads';
import { ConflictsNotice } from '@/features/timetravel/components/ConflictsNotice';

/**
 * /projects/:namespace/:projectName/tree/:location? (project-tree, public): folder browsing. The
 * folder path may contain slashes; `file_path` opens a file's detail panel. Users with upload
 * permission get the upload area, the drop target and the 'Data Sync' panel here.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/tree/$')({
  validateSearch: validateProjectTreeSearch,
  staticData: {
    crumb: ({ params }) =>
      pathCrumbs(
        params._splat ?? '',
        `/projects/${encodeURIComponent(params.namespace ?? '')}/${encodeURIComponent(params.projectName ?? '')}/tree`,
      ),
  },
  component: ProjectTreePage,
});

function ProjectTreePage() {
  const { namespace, projectName } = Route.useParams();
  const viewer = useViewer();
  // The project layout loads it; this reads the same cache entry.
  const project = useQuery(projectQueryOptions(namespace, projectName, viewer.loggedIn));
  if (!project.data) return null;
  return (
    <ProjectTree
      project={project.data}
      loggedIn={viewer.loggedIn}
      username={viewer.profile?.username ?? ''}
    />
  );
}

function ProjectTree({
  project,
  loggedIn,
  username,
}: {
  project: ProjectDetail;
  loggedIn: boolean;
  username: string;
}) {
  const { namespace, projectName, _splat } = Route.useParams();
  const { file_path: filePath } = Route.useSearch();
  const navigate = useNavigate();
  const config = useQuery(configQueryOptions);
  const uploads = useProjectUploads(project, username);
  const location = normaliseFolder(_splat ?? '');
  const canUpload = loggedIn && project.permissions?.upload === true;
  const refusal = uploads.running ? CANNOT_UPDATE_DURING_UPLOAD : null;
  const file = filePath ? uploads.files.find((f) => f.path === filePath) : undefined;
  const wide = useMediaQuery(DATA_SYNC_BESIDE, true, { getInitialValueInEffect: false });
  const change = filePath ? uploads.changes.get(filePath) : undefined;

  const browser = (
    <FileBrowser
      namespace={namespace}
      projectName={projectName}
      files={uploads.files}
      location={location}
      changes={uploads.changes}
      onDelete={
        canUpload && !uploads.running && !uploads.blocked
          ? (path, isFolder) => uploads.remove(path, isFolder)
          : undefined
      }
      onRevert={canUpload && !uploads.running && !uploads.blocked ? uploads.revert : undefined}
      revertable={uploads.revertable}
    />
  );

  // Wide screens: the Data Sync panel sits beside the files, in a column kept for it, so it
  // covers no row and its coming moves none (issue 31); narrow ones: it floats, collapsed.
  const docked = wide && canUpload;
  const files = (
    <UploadDropZone
      canUpload={canUpload}
      onProjectTree
      running={uploads.running}
      blocked={uploads.blocked}
      onFiles={(files) => uploads.choose(files, location)}
      onRefused={uploads.refuse}
    >
      {canUpload && (
        <UploadArea
          refusal={refusal}
          blocked={uploads.blocked}
          onFiles={(files) => uploads.choose(files, location)}
          onRefused={uploads.refuse}
          docsUrl={config.data?.docs_url || undefined}
        />
      )}
      {browser}
    </UploadDropZone>
  );

  return (
    <>
      <ConflictsNotice namespace={namespace} projectName={projectName} version={project.version} />
      {docked ? (
        <Group align="flex-start" gap="md" wrap="nowrap">
          <Box flex={1} miw={0}>
            {files}
          </Box>
          <Box w={DATA_SYNC_COLUMN} style={{ flexShrink: 0, position: 'sticky', top: 76 }}>
            <ProjectDataSync uploads={uploads} docked />
          </Box>
        </Group>
      ) : (
        files
      )}
      <FileDetailPanel
        namespace={namespace}
        projectName={projectName}
        file={file}
        change={change}
        newSize={filePath ? uploads.chosenSizes.get(filePath) : undefined}
        onDelete={
          canUpload && !uploads.running && !uploads.blocked && filePath
            ? () => uploads.remove(filePath, false)
            : undefined
        }
        onClose={() =>
          void navigate({
            to: '/projects/$namespace/$projectName/tree/$',
            params: { namespace, projectName, _splat: _splat ?? '' },
            search: {},
          })
        }
      />
      {canUpload && !docked && <ProjectDataSync uploads={uploads} />}
    </>
  );
}
