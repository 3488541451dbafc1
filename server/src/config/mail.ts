/** Outgoing mail: SMTP_URL and MAIL_FROM. */
import { isIP } from 'node:net';
import { isValidEmail } from '../lib/validation';
import { ConfigError, quoted, read, readUrl, type Env } from './read';
import type { Config } from './types';

/** `Waymark <no-reply@host>` with the host of BASE_URL (an IP address in brackets). */
export function defaultMailFrom(baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const domain = isIP(host) === 4 ? `[${host}]` : host;
  return `Waymark <no-reply@${domain}>`;
}

/** `address` or `Display Name <address>` (optionally quoted name), on one line. */
function isValidMailFrom(value: string): boolean {
  const named = /^(?:"([^"\r\n]*)"|([^"<>\r\n]*?))\s*<([^<>\s]+)>$/.exec(value);
  if (named) return isValidEmail(named[3]!);
  return isValidEmail(value);
}

export function readMail(env: Env, baseUrl: string): Pick<Config, 'smtpUrl' | 'mailFrom'> {
  const smtpUrl = readUrl(
    env,
    'SMTP_URL',
    ['smtp:', 'smtps:'],
    'must be an smtp:// or smtps:// URL',
    true,
  );
  const given = read(env, 'MAIL_FROM');
  if (given !== undefined && !isValidMailFrom(given)) {
    throw new ConfigError(
      'MAIL_FROM',
      `MAIL_FROM must be an email address or "Name <address>" (got ${quoted(given)})`,
    );
  }
  return { smtpUrl, mailFrom: given ?? defaultMailFrom(baseUrl) };
}
