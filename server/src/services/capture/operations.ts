/**
 * The capture work that reads or writes users' files, run in the sandbox (run.ts): building a project's forms (forms.ts), what the QGIS project enforces on
 * edits (edit-rules.ts), and applying an edit batch to a copy of a GeoPackage
 * (apply-edits.ts). Requests and results are plain data.
 */
import type { CrossedError } from '../../lib/sandbox';
import { applyEdits, EditRefusal, type EditsRequest, type EditsResult } from './apply-edits';
import { buildEditRules, type EditRules, type EditRulesRequest } from './edit-rules';
import { buildForms, type FormsRequest, type FormsResult } from './forms';

export type CaptureRequest = FormsRequest | EditsRequest | EditRulesRequest;
export type CaptureResult =
  | ({ kind: 'forms' } & FormsResult)
  | ({ kind: 'edits' } & EditsResult)
  | { kind: 'rules'; rules: EditRules };

export async function runCapture(request: CaptureRequest): Promise<CaptureResult> {
  switch (request.kind) {
    case 'forms':
      return { kind: 'forms', ...(await buildForms(request)) };
    case 'edits':
      return { kind: 'edits', ...(await applyEdits(request)) };
    case 'rules':
      return { kind: 'rules', rules: await buildEditRules(request) };
  }
}

/** An EditRefusal thrown in the sandbox, rebuilt from its name and fields (run.ts). */
export function reviveCaptureError({ name, text, fields }: CrossedError): Error | null {
  if (name !== 'EditRefusal') return null;
  return new EditRefusal(Number(fields.status), String(fields.code), text);
}
