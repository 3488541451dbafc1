import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { requireLogin } from '@/app/guards';
import { PageTitle } from '@/components/PageTitle';
import { OutboxEdits } from '@/features/capture/components/OutboxEdits';
import { OutboxScreen } from '@/features/uploads/page/components/OutboxScreen';
import { OUTBOX_TITLE } from '@/features/uploads/model/outboxTitle';

/**
 * /outbox (login needed; issue 18): the uploads of this browser not sent yet, across projects,
 * and the field edits not sent yet (issue 34). The sidebar links here while there are some.
 */
export const Route = createFileRoute('/_app/outbox')({
  beforeLoad: requireLogin,
  staticData: { crumb: OUTBOX_TITLE },
  component: OutboxPage,
});

function OutboxPage() {
  const [editProjects, setEditProjects] = useState(0);
  return (
    <>
      <PageTitle>{OUTBOX_TITLE}</PageTitle>
      <OutboxScreen othersWaiting={editProjects > 0} />
      <OutboxEdits onCount={setEditProjects} />
    </>
  );
}
