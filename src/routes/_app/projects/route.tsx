import { createFileRoute } from '@tanstack/react-router';

/**
 * /projects and its children (spec 000 §2: public; spec 001 §2 names the routes that need a
 * login). Adds the 'Projects' breadcrumb to every project page.
 */
export const Route = createFileRoute('/_app/projects')({
  staticData: { crumb: 'Projects' },
});
