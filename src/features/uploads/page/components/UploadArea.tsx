import { Anchor, Button, Card, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFolderUp, IconPlugConnected, IconUpload } from '@tabler/icons-react';
import { useRef } from 'react';
import { filesOfInput } from '../dom/readDrop';
import type { ChosenFile } from '../../model/selection';
import {
  CHOOSE_FILES,
  CHOOSE_FOLDER,
  DROP_AREA_LABEL,
  DROP_HINT,
  PLUGIN_CARD_LINK,
  PLUGIN_CARD_TEXT,
  PLUGIN_CARD_TITLE,
} from '../../model/texts';

export interface UploadAreaProps {
  /** Choosing is refused while an upload runs (the reason goes to onRefused). */
  refusal: string | null;
  /** Choosing is not possible now (maintenance): the buttons are disabled, this said under them. */
  blocked?: string | null;
  onFiles: (files: ChosenFile[]) => void;
  onRefused: (message: string) => void;
  /** Documentation address from /config, for the plugin card's link. */
  docsUrl?: string;
}

/**
 * The upload area on project-tree (spec 001 §2 "File browser"): a hint to drop files or
 * folders, buttons opening a file and a folder picker (touch devices have no drag and drop),
 * and the card recommending the desktop plugin.
 */
export function UploadArea({ refusal, blocked, onFiles, onRefused, docsUrl }: UploadAreaProps) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  // Offline too: the upload is queued on this device and sent when the connection returns.
  const open = (input: HTMLInputElement | null) => {
    if (refusal) onRefused(refusal);
    else input?.click();
  };

  const onChange = (input: HTMLInputElement) => {
    const files = input.files ? filesOfInput(input.files) : [];
    // Choosing the same files again must fire a change again.
    input.value = '';
    if (files.length > 0) onFiles(files);
  };

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" mb="md">
      <Paper
        withBorder
        p="md"
        role="region"
        aria-label={DROP_AREA_LABEL}
        style={{ borderStyle: 'dashed' }}
      >
        <Stack gap="sm" align="center" justify="center" h="100%">
          <IconUpload size={28} stroke={1.5} aria-hidden />
          <Text size="sm" ta="center">
            {DROP_HINT}
          </Text>
          <Group gap="xs" justify="center">
            <Button
              variant="default"
              size="md"
              leftSection={<IconUpload size={16} aria-hidden />}
              disabled={Boolean(blocked)}
              onClick={() => open(filesInput.current)}
            >
              {CHOOSE_FILES}
            </Button>
            <Button
              variant="default"
              size="md"
              leftSection={<IconFolderUp size={16} aria-hidden />}
              disabled={Boolean(blocked)}
              onClick={() => open(folderInput.current)}
            >
              {CHOOSE_FOLDER}
            </Button>
          </Group>
          {blocked && (
            <Text size="sm" c="dimmed" ta="center">
              {blocked}
            </Text>
          )}
          <input
            ref={filesInput}
            type="file"
            multiple
            hidden
            aria-label={CHOOSE_FILES}
            data-testid="upload-files-input"
            onChange={(event) => onChange(event.currentTarget)}
          />
          <input
            ref={folderInput}
            type="file"
            multiple
            hidden
            aria-label={CHOOSE_FOLDER}
            data-testid="upload-folder-input"
            {...{ webkitdirectory: '' }}
            onChange={(event) => onChange(event.currentTarget)}
          />
        </Stack>
      </Paper>
      <Card withBorder padding="md" role="note" aria-label={PLUGIN_CARD_TITLE}>
        <Group gap="xs" mb="xs" wrap="nowrap">
          <IconPlugConnected size={20} stroke={1.5} aria-hidden />
          <Text fw={600}>{PLUGIN_CARD_TITLE}</Text>
        </Group>
        <Text size="sm" mb="xs">
          {PLUGIN_CARD_TEXT}
        </Text>
        {docsUrl && (
          <Anchor href={docsUrl} target="_blank" rel="noopener noreferrer" size="sm">
            {PLUGIN_CARD_LINK}
          </Anchor>
        )}
      </Card>
    </SimpleGrid>
  );
}
