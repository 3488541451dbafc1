import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../../../../../../app/guards';
import { validateVersionsSearch } from '../../../../../../app/search';

/** .../history (project-versions, for logged-in users); `version_id` opens a version's details. */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/history/')({
  beforeLoad: requireLogin,
  validateSearch: validateVersionsSearch,
  staticData: { crumb: 'History' },
});
