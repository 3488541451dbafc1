import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../../../../../app/guards';

/** .../collaborators (project-collaborators, login needed; project owner only). */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/collaborators')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Collaborators' },
});
