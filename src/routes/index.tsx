import { createFileRoute } from '@tanstack/react-router';
import { redirectHome } from '@/app/guards';

/** '/' (home, public): the dashboard when logged in, otherwise the sign-in page. */
export const Route = createFileRoute('/')({
  beforeLoad: redirectHome,
});
