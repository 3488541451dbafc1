import { createFileRoute } from '@tanstack/react-router';
import { requireLogin } from '@/app/guards';
import { PageTitle } from '@/components/PageTitle';
import { AuditLog } from '@/features/audit';
import { AUDIT_TITLE } from '@/features/audit/title';

/**
 * /audit (login needed): the audit log of the workspaces the user administers; everything for
 * the superuser. Others get the server's 403 as the page's message.
 */
export const Route = createFileRoute('/_app/audit')({
  beforeLoad: requireLogin,
  staticData: { crumb: AUDIT_TITLE },
  component: AuditPage,
});

function AuditPage() {
  return (
    <>
      <PageTitle>{AUDIT_TITLE}</PageTitle>
      <AuditLog />
    </>
  );
}
