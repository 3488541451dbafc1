/**
 * GET/HEAD /v1/project/raw/{namespace}/{name}?file=…: one file's content. Downloads save it under
 * the Content-Disposition name; previews learn the type with HEAD and read text with a Range.
 */
import { queryOptions, useMutation } from '@tanstack/react-query';
import { api } from '@/api';
import { stableKey } from '@/offline/offlineCache';
import { withOfflineCopy } from '@/offline/instance';
import { filenameFromContentDisposition, readPrefix, saveBlob } from '@/lib/download';
import { fileName } from '../model/files';
import { TEXT_PREVIEW_BYTES, previewKind, type PreviewKind } from '../model/preview';

export const DOWNLOAD_FILE_FALLBACK = 'Failed to download file';

export interface RawFileRef {
  namespace: string;
  name: string;
  path: string;
}

export function rawFilePath({ namespace, name }: RawFileRef): string {
  return `/v1/project/raw/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;
}

export function rawFileUrl(ref: RawFileRef): string {
  return api.url(rawFilePath(ref), { file: ref.path });
}

export async function downloadRawFile(ref: RawFileRef): Promise<void> {
  const response = await api.get<Response>(rawFilePath(ref), {
    query: { file: ref.path },
    responseType: 'response',
    fallbackMessage: DOWNLOAD_FILE_FALLBACK,
  });
  const name = filenameFromContentDisposition(
    response.headers.get('Content-Disposition'),
    fileName(ref.path),
  );
  saveBlob(await response.blob(), name);
}

export function useDownloadRawFileMutation() {
  return useMutation({ mutationKey: ['projects', 'raw-download'], mutationFn: downloadRawFile });
}

export type FilePreview =
  { kind: 'none' } | { kind: 'image'; url: string } | { kind: 'text'; text: string };

/**
 * Saved for offline use (the kind and the text; an image's bytes are kept by the service
 * worker, src/sw/offline.ts).
 */
export function fetchFilePreview(
  ref: RawFileRef,
  size: number,
  signal?: AbortSignal,
): Promise<FilePreview> {
  return withOfflineCopy(stableKey('preview', ref.namespace, ref.name, ref.path, size), () =>
    loadFilePreview(ref, size, signal),
  );
}

async function loadFilePreview(
  ref: RawFileRef,
  size: number,
  signal?: AbortSignal,
): Promise<FilePreview> {
  const head = await api.request<Response>(rawFilePath(ref), {
    method: 'HEAD',
    query: { file: ref.path },
    responseType: 'response',
    signal,
  });
  const kind: PreviewKind = previewKind(ref.path, size, head.headers.get('Content-Type'));
  if (kind === 'image') return { kind, url: rawFileUrl(ref) };
  if (kind === 'none') return { kind };
  const response = await api.get<Response>(rawFilePath(ref), {
    query: { file: ref.path },
    headers: { Range: `bytes=0-${TEXT_PREVIEW_BYTES - 1}` },
    responseType: 'response',
    signal,
  });
  const bytes = await readPrefix(response, TEXT_PREVIEW_BYTES);
  return { kind, text: new TextDecoder().decode(bytes) };
}

export const filePreviewQueryOptions = (ref: RawFileRef, size: number) =>
  queryOptions({
    queryKey: ['projects', 'preview', ref.namespace, ref.name, ref.path, size] as const,
    queryFn: ({ signal }) => fetchFilePreview(ref, size, signal),
    staleTime: 60_000,
    networkMode: 'always',
    meta: { silent: true },
  });
