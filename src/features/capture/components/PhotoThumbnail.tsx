import { Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '@/api';
import { loadDb } from '@/db/lazy';
import { queuedPhoto } from '../store/editStore';
import { isImagePath } from '../model/photos';

/** Where a photo's bytes are: a Blob on this device (new or queued), else the project's file. */
export interface PhotoSource {
  namespace: string;
  projectName: string;
  /** Photos chosen in the open form, not saved yet. */
  local?: ReadonlyMap<string, Blob>;
}

const rawUrl = (source: PhotoSource, path: string) =>
  api.url(
    `/v1/project/raw/${encodeURIComponent(source.namespace)}/${encodeURIComponent(source.projectName)}`,
    { file: path },
  );

/**
 * The URL to show a photo from: an object URL of its bytes on this device (chosen in the form,
 * or queued with an edit), else the project's file (the service worker keeps image previews
 * seen, so it shows offline too).
 */
export function usePhotoUrl(source: PhotoSource, path: string | null): string | null {
  const local = path ? source.local?.get(path) : undefined;
  const [url, setUrl] = useState<{ path: string; url: string } | null>(null);
  const projectPath = `${source.namespace}/${source.projectName}`;
  useEffect(() => {
    if (!path) return;
    let active = true;
    let made: string | null = null;
    const show = (blob: Blob | undefined) => {
      if (!active) return;
      if (blob) {
        made = URL.createObjectURL(blob);
        setUrl({ path, url: made });
      } else {
        setUrl({ path, url: rawUrl(source, path) });
      }
    };
    if (local) show(local);
    else
      void loadDb()
        .then((db) => queuedPhoto(db, projectPath, path))
        .then(show, () => show(undefined));
    return () => {
      active = false;
      if (made) URL.revokeObjectURL(made);
    };
    // The source's parts are its identity.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, local, projectPath]);
  return path && url?.path === path ? url.url : null;
}

/** A photo's thumbnail (or its path, for a file that is not an image). */
export function PhotoThumbnail({
  source,
  path,
  size = 96,
}: {
  source: PhotoSource;
  path: string;
  size?: number;
}) {
  const url = usePhotoUrl(source, isImagePath(path) ? path : null);
  if (!isImagePath(path)) return <Text size="sm">{path}</Text>;
  return url ? (
    <img
      src={url}
      alt={`Photo ${path}`}
      style={{
        display: 'block',
        maxWidth: size,
        maxHeight: size,
        objectFit: 'cover',
        borderRadius: 4,
        border: '1px solid var(--mantine-color-default-border)',
      }}
    />
  ) : (
    <Text size="sm" c="dimmed">
      {path}
    </Text>
  );
}
