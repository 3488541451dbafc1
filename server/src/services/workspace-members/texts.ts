/** The answers of the workspace member and invitation calls (api-reference A.5). */
export const MEMBER_NOT_FOUND = 'User is not a member of this workspace';
export const ALREADY_WORKSPACE_MEMBER = 'User is already a member of this workspace';
export const OWNER_ROLE_NEEDS_OWNER =
  'Only a workspace owner can grant, change or remove the owner role';
export const LAST_OWNER = 'The workspace must keep at least one owner';
export const GLOBAL_ROLE_STAYS =
  "This user's role comes from the server's global setting (GLOBAL_READ, GLOBAL_WRITE or GLOBAL_ADMIN) and cannot be removed";
export const EMAIL_TAKEN = 'User with this email already exists';
export const USERNAME_TAKEN = 'User with this username already exists';
export const INVITATION_NOT_FOUND = 'Invitation not found';
export const INVITATION_EXPIRED = 'This invitation has expired';
export const INVITATION_OTHER_EMAIL = 'This invitation was sent to another email address';
