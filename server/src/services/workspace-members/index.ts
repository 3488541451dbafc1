/**
 * A workspace's members and invitations (the web app's members screen and the reference's v2
 * calls share these): members.ts (list, change the role, remove), invitations.ts (an admin
 * invites, lists, revokes), joining.ts (the invited user sees, accepts or declines),
 * registration.ts (accounts made into a workspace), texts.ts (the answers). Who manages a
 * workspace (its admins and owners) is `managedWorkspace` of services/permissions/.
 */
export { getMember, listMembers, removeMember, updateMember } from './members';
export {
  INVITATION_TTL_MS,
  inviteMember,
  listPendingInvitations,
  revokeInvitation,
} from './invitations';
export {
  acceptInvitation,
  acceptOwnInvitation,
  declineOwnInvitation,
  listOwnInvitations,
  showInvitation,
} from './joining';
export { createMemberAccount, registerFromInvitation } from './registration';
