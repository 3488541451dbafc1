/**
 * The edits call and the photo chunks on the page's API client (schemas edits.ts): POST
 * /v2/projects/{id}/chunks (raw bytes) and POST /v2/projects/{id}/edits with the batch's id
 * as `Mm-push-id`, so a repeat answers the first outcome.
 */
import type { EditBatch as EditBatchBody, EditResult } from '@contract/edits';
import { PUSH_ID_HEADER } from '@contract/protocol';
import { api } from '@/api';
import type { EditHttp } from '../sync/editSync';

export const SEND_EDITS_FALLBACK = 'Failed to send the edits';
export const SEND_PHOTO_FALLBACK = 'Failed to send a photo';

const projectBase = (projectId: string) => `/v2/projects/${encodeURIComponent(projectId)}`;

export const editHttp: EditHttp = {
  uploadChunk: (projectId, bytes, signal) =>
    api.post<{ id: string; valid_until?: string }>(`${projectBase(projectId)}/chunks`, bytes, {
      headers: { 'Content-Type': 'application/octet-stream' },
      signal,
      fallbackMessage: SEND_PHOTO_FALLBACK,
    }),
  sendBatch: (projectId, batchId, body: EditBatchBody, signal) =>
    api.post<EditResult>(`${projectBase(projectId)}/edits`, body, {
      headers: { [PUSH_ID_HEADER]: batchId },
      signal,
      fallbackMessage: SEND_EDITS_FALLBACK,
    }),
};
