/**
 * What a version made by time travel did (issue 20: `origin` of the version list and detail,
 * server/src/schemas/restore.ts), in words for the version detail.
 */
import type { VersionOrigin } from '@contract/restore';

export const ORIGIN_LABEL = 'Made by';

export function originText(origin: VersionOrigin): string {
  switch (origin.action) {
    case 'restore_version':
      return `Restores ${origin.version ?? ''}`;
    case 'restore_file':
      return `Restores ${origin.path ?? ''} from ${origin.version ?? ''}`;
    case 'keep_copy':
      return `Keeps ${origin.path ?? ''} in place of ${origin.original ?? ''}`;
    case 'discard_copy':
      return `Discards ${origin.path ?? ''}`;
  }
}
