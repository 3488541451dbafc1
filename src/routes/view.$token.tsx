import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { isApiError } from '@/api';
import { Alert, Button, Stack } from '@mantine/core';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { viewLinkOpenQueryOptions } from '@/features/map/api/dataOut';
import { ViewLinkPage } from '@/features/map/components/ViewLinkPage';
import { validateMapSearch } from '@/features/map/model/search';
import { NotFoundPage } from '@/features/shell/components/NotFoundPage';
import { useViewer } from '@/app/useViewer';

/**
 * /view/:token (issue 32, public): a read-only view link's page, the project's map and
 * attribute tables. An unknown, expired or revoked link shows the not-found page (spec 000
 * §2) and nothing of the project.
 */
export const Route = createFileRoute('/view/$token')({
  validateSearch: validateMapSearch,
  component: ViewLinkRoute,
});

function ViewLinkRoute() {
  const { token } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const viewer = useViewer();
  const link = useQuery(viewLinkOpenQueryOptions(token));
  if (link.isPending) return <LoadingIndicator label="Opening the view link" />;
  if (link.isError) {
    const gone = isApiError(link.error) && (link.error.status === 404 || link.error.status === 400);
    if (gone) return <NotFoundPage loggedIn={viewer.loggedIn} />;
    return (
      <Stack p="md" align="flex-start">
        <Alert color="red" role="alert">
          {link.error.message}
        </Alert>
        <Button variant="light" onClick={() => void link.refetch()}>
          Try again
        </Button>
      </Stack>
    );
  }
  return (
    <ViewLinkPage
      token={token}
      link={link.data}
      search={search}
      onSearch={(change, replace) =>
        void navigate({ search: (previous) => ({ ...previous, ...change }), replace })
      }
    />
  );
}
