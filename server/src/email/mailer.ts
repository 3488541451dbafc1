/**
 * Outgoing mail. Services build a MailMessage (see messages.ts) and hand it to the Mailer of
 * the app context: SMTP through nodemailer when SMTP_URL is set, otherwise the outbox folder
 * (outbox-mailer.ts), so password reset and email confirmation work on a fresh install.
 */

export interface MailMessage {
  /** Recipient address. */
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves once the message is handed over (to the SMTP server or the outbox folder). */
  send(message: MailMessage): Promise<void>;
}

/** What mailers need from a logger (pino's and Fastify's loggers qualify). */
export interface MailLogger {
  info(message: string): void;
  error(object: object, message: string): void;
}

/** Absolute http(s) URLs in the message, in order of appearance, each once. */
export function extractLinks(message: Pick<MailMessage, 'text' | 'html'>): string[] {
  const links = new Set<string>();
  for (const source of [message.text, message.html]) {
    for (const match of source.matchAll(/https?:\/\/[^\s"'<>]+/g)) {
      links.add(match[0].replace(/&amp;/g, '&').replace(/[.,;:!?)]+$/, ''));
    }
  }
  return [...links];
}
