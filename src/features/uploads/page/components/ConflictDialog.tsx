import { Button, Group, List, Text } from '@mantine/core';
import { AppDialog } from '@/components/AppDialog';
import {
  CONFLICT_CANCEL,
  CONFLICT_OVERWRITE,
  CONFLICT_TEXT,
  CONFLICT_TITLE,
} from '../../model/texts';

export interface ConflictDialogProps {
  /** Conflicting GeoPackage / SQLite paths; null closes the dialog. */
  paths: readonly string[] | null;
  onOverwrite: () => void;
  onCancel: () => void;
}

/** Before replacing versioned files changed on the server meanwhile: overwrite or cancel. */
export function ConflictDialog({ paths, onOverwrite, onCancel }: ConflictDialogProps) {
  return (
    <AppDialog opened={paths !== null} onClose={onCancel} title={CONFLICT_TITLE} persistent>
      <Text size="sm" mb="sm">
        {CONFLICT_TEXT}
      </Text>
      <List size="sm" mb="md">
        {(paths ?? []).map((path) => (
          <List.Item key={path} style={{ wordBreak: 'break-all' }}>
            {path}
          </List.Item>
        ))}
      </List>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {CONFLICT_CANCEL}
        </Button>
        <Button color="red" onClick={onOverwrite}>
          {CONFLICT_OVERWRITE}
        </Button>
      </Group>
    </AppDialog>
  );
}
