import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { PageTitle } from '@/components/PageTitle';
import { OutboxScreen } from '@/features/uploads/page/components/OutboxScreen';
import { OUTBOX_TITLE } from '@/features/uploads/model/outboxTitle';

/**
 * /outbox (login needed; issue 18): the uploads of this browser not sent yet, across projects.
 * The sidebar links here while there are some.
 */
export const Route = createFileRoute('/_app/outbox')({
  beforeLoad: requireLogin,
  staticData: { crumb: OUTBOX_TITLE },
  component: OutboxPage,
});

function OutboxPage() {
  return (
    <>
      <PageTitle>{OUTBOX_TITLE}</PageTitle>
      <OutboxScreen />
    </>
  );
}
