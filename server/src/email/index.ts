/** Picks the mailer for the configuration, and sends mail without failing the caller. */
import path from 'node:path';
import type { Config } from '../config';
import type { MailLogger, Mailer, MailMessage } from './mailer';
import { OUTBOX_DIR, OutboxMailer } from './outbox-mailer';
import { SmtpMailer } from './smtp-mailer';

export type { MailLogger, Mailer, MailMessage } from './mailer';

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  logger: MailLogger,
  now?: () => Date,
): Mailer {
  if (config.smtpUrl) return new SmtpMailer(config.smtpUrl, config.mailFrom);
  return new OutboxMailer(path.join(config.dataDir, OUTBOX_DIR), logger, now);
}

/**
 * Sends `message`; a failure is logged at error level (recipient, subject, cause) and
 * reported as false instead of thrown. The reference queues mail and answers the request
 * regardless, so the user's action (already committed) stands either way; the log is how
 * the operator learns that a mail was not delivered.
 */
export async function deliver(
  mailer: Mailer,
  logger: MailLogger,
  message: MailMessage,
): Promise<boolean> {
  try {
    await mailer.send(message);
    return true;
  } catch (error) {
    logger.error(
      { err: error, to: message.to, subject: message.subject },
      `Could not send mail to ${message.to}: ${message.subject}`,
    );
    return false;
  }
}
