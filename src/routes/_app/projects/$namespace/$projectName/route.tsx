import { Outlet, createFileRoute } from '@tanstack/react-router';
import { PageTitle } from '../../../../../components/PageTitle';

/**
 * The project view around files, history, collaborators and settings (spec 001 §2). Public:
 * each child route declares whether it needs a login.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName')({
  staticData: { crumb: ({ params }) => params.projectName ?? null },
  component: ProjectLayout,
});

function ProjectLayout() {
  const { projectName } = Route.useParams();
  return (
    <>
      <PageTitle>{projectName}</PageTitle>
      <Outlet />
    </>
  );
}
