/**
 * What a version made by time travel did (issue 20: `origin` of the version list and detail,
 * server/src/schemas/restore.ts), in words for the version detail.
 */
import type { VersionOrigin } from '@contract/restore';

/** The field's label (issue 31: 'Made by: Restores …' read as if the action were an author). */
export const ORIGIN_LABEL = 'Action';

export function originText(origin: VersionOrigin): string {
  switch (origin.action) {
    case 'restore_version':
      return `Restored ${origin.version ?? ''}`;
    case 'restore_file':
      return `Restored ${origin.path ?? ''} from ${origin.version ?? ''}`;
    case 'keep_copy':
      return `Kept ${origin.path ?? ''} in place of ${origin.original ?? ''}`;
    case 'discard_copy':
      return `Discarded ${origin.path ?? ''}`;
  }
}
