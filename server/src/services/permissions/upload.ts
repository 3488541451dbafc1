/**
 * A running v1 upload (a push transaction) is its own user's only (rules.ts canUseUpload):
 * its chunks, status, finish and cancel. 401 for a caller not signed in; 404 for an id that
 * is not a UUID, an unknown upload, or one whose project is scheduled for deletion; 403 with
 * the reference's text for another user's. Whether the caller may still push to the project
 * is projectFor(…, 'upload') on the upload's project.
 */
import type { AppContext } from '../../context';
import { findUpload, type UploadWithProject } from '../../db/queries/uploads';
import type { User } from '../../db/schema';
import { forbidden, notFound } from '../../errors';
import { isUuid } from './project';
import { canUseUpload } from './rules';
import { assertSignedIn } from './session';

export const NO_UPLOAD_PERMISSIONS = 'You do not have permissions for ongoing upload';

/** The caller's upload `transaction`, or the 401, 404 or 403 above. */
export async function uploadFor(
  ctx: AppContext,
  caller: User | null,
  transaction: string,
): Promise<UploadWithProject> {
  assertSignedIn(caller);
  if (!isUuid(transaction)) throw notFound();
  const found = await findUpload(ctx.database.db, transaction.toLowerCase());
  if (!found || found.projectRemovedAt) throw notFound();
  if (!canUseUpload(caller, found.upload.userId)) throw forbidden(NO_UPLOAD_PERMISSIONS);
  return found;
}
