import { ActionIcon, Box, Code, Group, Image, Text } from '@mantine/core';
import { IconRotateClockwise, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { LoadingIndicator } from '@/components/LoadingIndicator';
import { filePreviewQueryOptions, type RawFileRef } from '../api/rawFile';
import {
  ZOOM_MAX,
  ZOOM_MIN,
  canPreview,
  previewText,
  rotate,
  zoomIn,
  zoomOut,
} from '../model/preview';

/**
 * Image preview with 90° rotation and zoom 0.5–1.5 (spec 001 §4, §9). At 100 % an image shows
 * at its own size (a small photo is not stretched and blurred); one wider than the panel fits it.
 */
export function ImagePreview({ url, alt }: { url: string; alt: string }) {
  const [zoom, setZoom] = useState(1);
  const [rotation, setRotation] = useState(0);
  // A finger needs 44 px targets (issue 31: they were 28 px); a mouse keeps the compact ones.
  const size = useMediaQuery('(pointer: coarse)') ? 44 : 'md';
  return (
    <Box>
      <Group gap="xs" mb="xs">
        <ActionIcon
          variant="default"
          size={size}
          aria-label="Zoom out"
          disabled={zoom <= ZOOM_MIN}
          onClick={() => setZoom(zoomOut)}
        >
          <IconZoomOut size={16} aria-hidden />
        </ActionIcon>
        <Text size="sm" aria-label="Zoom" w={48} ta="center">
          {Math.round(zoom * 100)}%
        </Text>
        <ActionIcon
          variant="default"
          size={size}
          aria-label="Zoom in"
          disabled={zoom >= ZOOM_MAX}
          onClick={() => setZoom(zoomIn)}
        >
          <IconZoomIn size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant="default"
          size={size}
          aria-label="Rotate"
          onClick={() => setRotation(rotate)}
        >
          <IconRotateClockwise size={16} aria-hidden />
        </ActionIcon>
      </Group>
      <Box style={{ overflow: 'auto' }}>
        <Image
          src={url}
          alt={alt}
          w="auto"
          maw="100%"
          style={{
            transform: `rotate(${rotation}deg) scale(${zoom})`,
            transition: 'transform 150ms ease',
          }}
        />
      </Box>
    </Box>
  );
}

/** The preview of a file: image or text, when its type allows one. */
export function FilePreview({ file, size }: { file: RawFileRef; size: number }) {
  const enabled = canPreview(size);
  const query = useQuery({ ...filePreviewQueryOptions(file, size), enabled });
  if (!enabled || query.isError) return null;
  if (query.isPending) return <LoadingIndicator label="Loading preview" />;
  const preview = query.data;
  if (preview.kind === 'image') {
    return <ImagePreview url={preview.url} alt={file.path} />;
  }
  if (preview.kind === 'text') {
    return (
      <Code block data-testid="text-preview" style={{ whiteSpace: 'pre-wrap' }}>
        {previewText(preview.text)}
      </Code>
    );
  }
  return null;
}
