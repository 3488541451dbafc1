import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '../../../../../app/guards';

/**
 * .../settings (project-settings, login needed). Only the project owner may see it; the owner
 * check (redirect to /projects) needs the project and comes with the project screens.
 */
export const Route = createFileRoute('/_app/projects/$namespace/$projectName/settings')({
  beforeLoad: requireLogin,
  staticData: { crumb: 'Settings' },
});
