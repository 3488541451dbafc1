/**
 * The capture work that reads or writes users' files, run in the capture worker thread
 * (thread.ts): building a project's forms (forms.ts) and applying an edit batch to a copy of
 * a GeoPackage (apply-edits.ts). Requests and results are plain data.
 */
import { applyEdits, EditRefusal, type EditsRequest, type EditsResult } from './apply-edits';
import { buildForms, type FormsRequest, type FormsResult } from './forms';

export type CaptureRequest = FormsRequest | EditsRequest;
export type CaptureResult = ({ kind: 'forms' } & FormsResult) | ({ kind: 'edits' } & EditsResult);

export async function runCapture(request: CaptureRequest): Promise<CaptureResult> {
  switch (request.kind) {
    case 'forms':
      return { kind: 'forms', ...(await buildForms(request)) };
    case 'edits':
      return { kind: 'edits', ...(await applyEdits(request)) };
  }
}

/** The refusal that crosses the thread: its text is `code|message`. */
export function knownCaptureError(error: unknown): { name: string; text: string } | null {
  if (error instanceof EditRefusal) {
    return {
      name: 'EditRefusal',
      text: JSON.stringify({ status: error.status, code: error.code, message: error.message }),
    };
  }
  return null;
}

export function reviveCaptureError({ name, text }: { name: string; text: string }): Error | null {
  if (name !== 'EditRefusal') return null;
  const { status, code, message } = JSON.parse(text) as {
    status: number;
    code: string;
    message: string;
  };
  return new EditRefusal(status, code, message);
}
