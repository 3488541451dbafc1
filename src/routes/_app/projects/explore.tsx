import { createFileRoute } from '@tanstack/react-router';
import { validateProjectListSearch } from '../../../app/search';
import { PageTitle } from '../../../components/PageTitle';

/** /projects/explore (explore, public): public projects. */
export const Route = createFileRoute('/_app/projects/explore')({
  validateSearch: validateProjectListSearch,
  staticData: { crumb: 'Explore' },
  component: ExplorePage,
});

function ExplorePage() {
  return <PageTitle>Public projects</PageTitle>;
}
