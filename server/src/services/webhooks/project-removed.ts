/**
 * A project marked removed (deleted for its users; purged later) together with its
 * project.deleted webhook message, in one transaction; the message is sent at once.
 */
import type { AppContext } from '../../context';
import { markProjectRemoved } from '../../db/queries/projects';
import { kickWebhooks } from './dispatcher';
import { queueProjectEvent } from './events';

/** False when the project was already removed (nothing queued). */
export async function removeProjectAndNotify(
  ctx: AppContext,
  projectId: string,
  callerId: number,
  removedAt: Date,
): Promise<boolean> {
  const marked = await ctx.database.db.transaction(async (tx) => {
    if (!(await markProjectRemoved(tx, projectId, callerId, removedAt))) return false;
    await queueProjectEvent(tx, {
      type: 'project.deleted',
      projectId,
      at: ctx.now(),
      actorId: callerId,
      data: {},
    });
    return true;
  });
  if (marked) kickWebhooks(ctx);
  return marked;
}
