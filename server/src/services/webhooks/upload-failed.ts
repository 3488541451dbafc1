/**
 * upload.failed: a push that failed on the server's side (the database or the file store
 * failing midway, not a refusal of what the client sent) is reported to the project's
 * webhooks. Best effort: when the database itself is what failed, the message may not be
 * queued either (logged).
 */
import type { AppContext } from '../../context';
import { HttpProblem } from '../../errors';
import { kickWebhooks } from './dispatcher';
import { queueProjectEvent } from './events';

/** A failure the client caused is a 4xx HttpProblem; anything else is the server's. */
export function isServerFailure(error: unknown): boolean {
  return !(error instanceof HttpProblem && error.status < 500);
}

export async function reportUploadFailure(
  ctx: AppContext,
  upload: { projectId: string; userId: number; version: number; files: string[] },
  error: unknown,
): Promise<void> {
  if (!isServerFailure(error)) return;
  try {
    await queueProjectEvent(ctx.database.db, {
      type: 'upload.failed',
      projectId: upload.projectId,
      at: ctx.now(),
      actorId: upload.userId,
      data: {
        base_version: `v${upload.version}`,
        files: upload.files.slice(0, 1000),
        error: 'The server could not store the upload; the client may retry it',
      },
    });
    kickWebhooks(ctx);
  } catch (queueError) {
    ctx.log.warn({ err: queueError }, 'upload.failed could not be queued for webhooks');
  }
}
