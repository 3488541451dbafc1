import type { NewVersion } from '@contract/restore';
import { IconArrowsDiff, IconRestore } from '@tabler/icons-react';
import { ButtonLink } from '@/lib/routerLinks';
import {
  COMPARE_WITH_LATEST,
  RESTORE,
  RESTORE_FILE,
  RESTORE_VERSION,
  restoreFileText,
  restoreFileTitle,
  restoreVersionText,
  restoreVersionTitle,
} from '../model/texts';
import { NewVersionButton } from './NewVersionButton';

interface ProjectRef {
  namespace: string;
  projectName: string;
}

export interface VersionActionsProps extends ProjectRef {
  /** The version shown. */
  version: string;
  /** The project's latest version. */
  latest: string;
  /** Writers and above (the project's `upload` permission) may restore. */
  canRestore: boolean;
  onRestored: (made: NewVersion) => void;
}

/**
 * The version detail's time-travel buttons: 'Compare with the latest version' and, for
 * writers and above, 'Restore this version' (asks first). The latest version has neither.
 */
export function VersionActions({
  namespace,
  projectName,
  version,
  latest,
  canRestore,
  onRestored,
}: VersionActionsProps) {
  if (version === latest) return null;
  return (
    <>
      <ButtonLink
        to="/projects/$namespace/$projectName/compare"
        params={{ namespace, projectName }}
        search={{ from: version, to: latest }}
        variant="default"
        leftSection={<IconArrowsDiff size={16} aria-hidden />}
      >
        {COMPARE_WITH_LATEST}
      </ButtonLink>
      {canRestore && (
        <NewVersionButton
          namespace={namespace}
          projectName={projectName}
          action={{ kind: 'restore-version', body: { version } }}
          label={RESTORE_VERSION}
          leftSection={<IconRestore size={16} aria-hidden />}
          confirm={{
            title: restoreVersionTitle(version),
            text: restoreVersionText(version),
            confirmText: RESTORE,
          }}
          onDone={onRestored}
        />
      )}
    </>
  );
}

export interface RestoreFileButtonProps extends ProjectRef {
  version: string;
  path: string;
  onRestored?: (made: NewVersion) => void;
  size?: 'xs' | 'compact-xs' | 'sm';
}

/** 'Restore this file': one file back to its content in `version`, as a new version. */
export function RestoreFileButton({
  namespace,
  projectName,
  version,
  path,
  onRestored,
  size,
}: RestoreFileButtonProps) {
  return (
    <NewVersionButton
      namespace={namespace}
      projectName={projectName}
      action={{ kind: 'restore-file', body: { version, path } }}
      label={RESTORE_FILE}
      size={size}
      leftSection={<IconRestore size={14} aria-hidden />}
      confirm={{
        title: restoreFileTitle(path, version),
        text: restoreFileText(path, version),
        confirmText: RESTORE,
      }}
      onDone={onRestored}
    />
  );
}
