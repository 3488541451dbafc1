/**
 * PUT /v1/project/{namespace}/{name} {access}: adds users to a role (spec 001 §7 "Save access by
 * role name"). A 207 is a partial success: some users were added, the refused ones come back
 * as `invalid_usernames` (spec 001 §5 "Settings save accepts some non-2xx statuses").
 */
import type { AccessSettings } from '@contract/projects';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/api';
import type { ProjectRoleName } from '@/lib/permissions';
import {
  SHARE_FALLBACK,
  refusedUsernames,
  shareAccess,
  type ProjectAccessLists,
} from '../model/collaborators';

export interface ShareProjectArgs {
  namespace: string;
  name: string;
  access: ProjectAccessLists | undefined;
  usernames: string[];
  role: ProjectRoleName;
}

export interface ShareResult {
  /** Usernames the server could not add (partial success); empty when all were added. */
  refused: string[];
}

export async function shareProject(args: ShareProjectArgs): Promise<ShareResult> {
  const data = await api.put(
    `/v1/project/${encodeURIComponent(args.namespace)}/${encodeURIComponent(args.name)}`,
    { access: shareAccess(args.access, args.usernames, args.role) satisfies AccessSettings },
    { fallbackMessage: SHARE_FALLBACK },
  );
  return { refused: refusedUsernames(data) ?? [] };
}

export function useShareProjectMutation() {
  return useMutation({ mutationKey: ['collaborators', 'share'], mutationFn: shareProject });
}
