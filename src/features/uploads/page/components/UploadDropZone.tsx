import { Box } from '@mantine/core';
import { useEffect, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { dragAllowed, dropRefusal, itemsRefusal, type DropContext } from '../../model/dropRules';
import type { ChosenFile } from '../../model/selection';
import { takeDrop } from '../dom/readDrop';

/** Drag highlight debounce (spec 001 §9). */
export const DRAG_HIGHLIGHT_DEBOUNCE_MS = 30;

export interface UploadDropZoneProps extends DropContext {
  onFiles: (files: ChosenFile[]) => void;
  onRefused: (message: string) => void;
  children: ReactNode;
}

type Highlight = 'allowed' | 'refused' | null;

function isFileDrag(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * The drop target around the file browser (spec 001 §4 "Drag and drop"): the highlight follows
 * the drag (debounced 30 ms), in the primary colour when dropping is allowed and red otherwise.
 */
export function UploadDropZone({ onFiles, onRefused, children, ...context }: UploadDropZoneProps) {
  const [highlight, setHighlight] = useState<Highlight>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const schedule = (value: Highlight) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setHighlight(value), DRAG_HIGHLIGHT_DEBOUNCE_MS);
  };

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    const kinds = Array.from(event.dataTransfer?.items ?? [], (item) => item.kind);
    if (kinds.length === 0 && !isFileDrag(event)) return;
    // Always take the drop, so a refused one is explained rather than opened by the browser.
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    const allowed = dragAllowed(context, kinds.length > 0 ? kinds : ['file']);
    schedule(allowed ? 'allowed' : 'refused');
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    clearTimeout(timer.current);
    setHighlight(null);
    if (!event.dataTransfer) return;
    const dropped = takeDrop(event.dataTransfer);
    const refusal = dropRefusal(context) ?? itemsRefusal(dropped.kinds);
    if (refusal) {
      onRefused(refusal);
      return;
    }
    void dropped.read().then(
      (files) => (files.length > 0 ? onFiles(files) : onRefused(itemsRefusal([]) ?? '')),
      (error: unknown) => onRefused(error instanceof Error ? error.message : String(error)),
    );
  };

  const color =
    highlight === 'allowed'
      ? 'var(--mantine-primary-color-filled)'
      : highlight === 'refused'
        ? 'var(--mantine-color-red-filled)'
        : 'transparent';

  return (
    <Box
      data-drop-highlight={highlight ?? 'none'}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={() => schedule(null)}
      onDrop={onDrop}
      style={{
        outline: `2px dashed ${color}`,
        outlineOffset: 4,
        borderRadius: 'var(--mantine-radius-md)',
        minHeight: '100%',
      }}
    >
      {children}
    </Box>
  );
}
