/** The audit log screen for workspace admins and the superuser (issue 33). */
export { AuditLog } from './components/AuditLog';
