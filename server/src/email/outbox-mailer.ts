/**
 * The mailer used without SMTP_URL: each message becomes one JSON file in DATA_DIR/outbox,
 * named `<ISO time with ':' as '-'>-<8 hex>.json`, holding
 * {"to","subject","text","html","links":[absolute URLs],"sentAt"}, and one info log line
 * `Mail to <to>: <subject> <first link>`, so an operator (or a test) can follow the links.
 * Files are written under a temporary name and renamed, so readers never see half a file.
 * Nothing deletes them: the folder is the instance's mail log.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { extractLinks, type MailLogger, type Mailer, type MailMessage } from './mailer';

export const OUTBOX_DIR = 'outbox';

export interface OutboxMail extends MailMessage {
  links: string[];
  /** ISO 8601 UTC. */
  sentAt: string;
}

export class OutboxMailer implements Mailer {
  constructor(
    readonly dir: string,
    private readonly logger: MailLogger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async send(message: MailMessage): Promise<void> {
    const sentAt = this.now().toISOString();
    const links = extractLinks(message);
    const mail: OutboxMail = {
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
      links,
      sentAt,
    };
    const name = `${sentAt.replace(/:/g, '-')}-${randomBytes(4).toString('hex')}`;
    await fs.mkdir(this.dir, { recursive: true });
    const temporary = path.join(this.dir, `.${name}.tmp`);
    await fs.writeFile(temporary, JSON.stringify(mail, null, 2) + '\n', { mode: 0o600 });
    await fs.rename(temporary, path.join(this.dir, `${name}.json`));
    this.logger.info(`Mail to ${message.to}: ${message.subject}${links[0] ? ` ${links[0]}` : ''}`);
  }
}

/** The messages in an outbox folder, oldest first (file names sort by time). */
export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return Promise.all(
    names.map(async (n) => JSON.parse(await fs.readFile(path.join(dir, n), 'utf8')) as OutboxMail),
  );
}
