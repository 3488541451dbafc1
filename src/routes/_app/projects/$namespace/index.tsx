import { createFileRoute } from '@tanstack/react-router';
import { validateProjectListSearch } from '../../../../app/search';
import { PageTitle } from '../../../../components/PageTitle';

/**
 * /projects/:namespace (namespace-projects): the projects of one namespace. Public like the other
 * project lists (spec 000 §2 "/projects and its children: public"); anonymous visitors see the
 * namespace's public projects.
 */
export const Route = createFileRoute('/_app/projects/$namespace/')({
  validateSearch: validateProjectListSearch,
  staticData: { crumb: ({ params }) => params.namespace ?? null },
  component: NamespaceProjectsPage,
});

function NamespaceProjectsPage() {
  const { namespace } = Route.useParams();
  return <PageTitle>{namespace}</PageTitle>;
}
