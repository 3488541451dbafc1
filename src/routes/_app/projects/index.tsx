import { createFileRoute } from '@tanstack/react-router';
import { validateProjectListSearch } from '../../../app/search';
import { PageTitle } from '../../../components/PageTitle';

/** /projects (projects, public, title Projects). */
export const Route = createFileRoute('/_app/projects/')({
  validateSearch: validateProjectListSearch,
  component: ProjectsPage,
});

function ProjectsPage() {
  return <PageTitle>Projects</PageTitle>;
}
