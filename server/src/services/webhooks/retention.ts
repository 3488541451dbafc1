/** The delivery log keeps delivered and failed messages for WEBHOOK_LOG_DAYS (a job). */
import type { AppContext } from '../../context';
import { deleteOldDeliveries } from '../../db/queries/webhooks';

export const WEBHOOK_LOG_JOB = 'prune-webhook-log';
export const WEBHOOK_LOG_DAYS = 30;

export async function pruneWebhookLog(ctx: AppContext): Promise<void> {
  const before = new Date(ctx.now().getTime() - WEBHOOK_LOG_DAYS * 24 * 3600 * 1000);
  await deleteOldDeliveries(ctx.database.db, before);
}
