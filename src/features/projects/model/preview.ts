/**
 * File previews in the detail panel (spec 001 §2, §4, §9): only files under 100 MB; the type is
 * learnt from a HEAD request, text is read from the first 64 KiB only.
 */
import { fileExtension } from './files';

export const PREVIEW_MAX_SIZE = 104857600;
export const TEXT_PREVIEW_BYTES = 64 * 1024;
export const TEXT_PREVIEW_MAX_LINES = 50;
export const TEXT_PREVIEW_MAX_CHARS = 10000;
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 1.5;
export const ZOOM_STEP = 0.1;
export const ROTATION_STEP = 90;

const IMAGE_EXTENSIONS = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);

export type PreviewKind = 'image' | 'text' | 'none';

/** Whether a preview is tried at all (decides whether to send the HEAD request). */
export function canPreview(size: number): boolean {
  return size < PREVIEW_MAX_SIZE;
}

/**
 * The preview of a file given its Content-Type: raster images by extension and type; text/*
 * and markup that must not be rendered (SVG, HTML) as text; nothing otherwise.
 */
export function previewKind(name: string, size: number, contentType: string | null): PreviewKind {
  if (!canPreview(size) || !contentType) return 'none';
  const type = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (type === 'image/svg+xml' || type === 'text/html' || type === 'application/xhtml+xml') {
    return 'text';
  }
  if (type.startsWith('image/') && IMAGE_EXTENSIONS.has(fileExtension(name))) return 'image';
  if (type.startsWith('text/')) return 'text';
  return 'none';
}

/** The shown part of a text: at most 50 lines and 10000 characters. */
export function previewText(text: string): string {
  const lines = text.split('\n').slice(0, TEXT_PREVIEW_MAX_LINES).join('\n');
  return lines.slice(0, TEXT_PREVIEW_MAX_CHARS);
}

const round = (value: number) => Math.round(value * 10) / 10;

export function zoomIn(zoom: number): number {
  return Math.min(ZOOM_MAX, round(zoom + ZOOM_STEP));
}

export function zoomOut(zoom: number): number {
  return Math.max(ZOOM_MIN, round(zoom - ZOOM_STEP));
}

export function rotate(degrees: number): number {
  return (degrees + ROTATION_STEP) % 360;
}
