import { errorMessage } from '@/api';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { notifyError } from '@/lib/notify';
import { useUnsubscribeMutation } from '../api/unsubscribe';
import { UNSUBSCRIBE_FALLBACK } from '../model/project';

export interface LeaveProjectDialogProps {
  opened: boolean;
  onClose: () => void;
  project: { id: string; namespace: string; name: string };
  /** Called once the user has left. */
  onLeft: () => void;
}

export function leaveQuestion(namespace: string, name: string): string {
  return `Are you sure to leave the project ${namespace}/${name}?`;
}

/** Leave project (spec 001 §2 "Other dialogs", §4). */
export function LeaveProjectDialog({ opened, onClose, project, onLeft }: LeaveProjectDialogProps) {
  const unsubscribe = useUnsubscribeMutation();
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={leaveQuestion(project.namespace, project.name)}
      confirmText="Yes"
      cancelText="No"
      loading={unsubscribe.isPending}
      onConfirm={() =>
        unsubscribe.mutate(project.id, {
          onSuccess: () => {
            onClose();
            onLeft();
          },
          onError: (error) => notifyError(errorMessage(error, UNSUBSCRIBE_FALLBACK)),
        })
      }
    >
      You will not have access to it anymore.
    </ConfirmDialog>
  );
}
