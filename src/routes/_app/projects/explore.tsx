import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { validateProjectListSearch } from '@/lib/search';
import { ProjectsList } from '@/features/projects/components/ProjectsList';

/** /projects/explore (explore, public): public projects of every namespace. */
export const Route = createFileRoute('/_app/projects/explore')({
  validateSearch: validateProjectListSearch,
  staticData: { crumb: 'Explore' },
  component: ExplorePage,
});

function ExplorePage() {
  const navigate = useNavigate();
  return (
    <ProjectsList
      title="Public projects"
      scope={{ kind: 'public' }}
      showNamespace
      onOpenProject={(namespace, projectName) =>
        void navigate({
          to: '/projects/$namespace/$projectName',
          params: { namespace, projectName },
        })
      }
    />
  );
}
