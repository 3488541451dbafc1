import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMailer, deliver, type MailLogger } from '../../server/src/email';
import { extractLinks } from '../../server/src/email/mailer';
import { confirmEmailMessage, resetPasswordMessage } from '../../server/src/email/messages';
import { OutboxMailer, readOutbox } from '../../server/src/email/outbox-mailer';
import { SmtpMailer } from '../../server/src/email/smtp-mailer';

let dir: string;

function recorder(): MailLogger & {
  infos: string[];
  errors: { object: object; message: string }[];
} {
  const infos: string[] = [];
  const errors: { object: object; message: string }[] = [];
  return {
    infos,
    errors,
    info: (message) => infos.push(message),
    error: (object, message) => errors.push({ object, message }),
  };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-mail-'));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('extractLinks', () => {
  it('finds absolute URLs in text and HTML once each, in order', () => {
    expect(
      extractLinks({
        text: 'Open http://a.example/x?y=1&z=2. Or https://b.example/p',
        html: '<a href="http://a.example/x?y=1&amp;z=2">x</a> <a href="https://c.example">c</a>',
      }),
    ).toEqual(['http://a.example/x?y=1&z=2', 'https://b.example/p', 'https://c.example']);
  });
});

describe('OutboxMailer', () => {
  it('writes one JSON file per mail and logs the first link', async () => {
    const log = recorder();
    const at = new Date('2024-05-04T14:21:56.695Z');
    const outbox = path.join(dir, 'outbox');
    const mailer = new OutboxMailer(outbox, log, () => at);
    const message = resetPasswordMessage(
      'jane@example.com',
      'jane',
      'http://maps.example/change-password/abc.def',
    );
    await mailer.send(message);

    const files = fs.readdirSync(outbox);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^2024-05-04T14-21-56\.695Z-[0-9a-f]{8}\.json$/);
    const mail = JSON.parse(fs.readFileSync(path.join(outbox, files[0]!), 'utf8'));
    expect(mail).toEqual({
      to: 'jane@example.com',
      subject: 'Reset your Waymark password',
      text: expect.stringContaining('http://maps.example/change-password/abc.def'),
      html: expect.stringContaining('href="http://maps.example/change-password/abc.def"'),
      links: ['http://maps.example/change-password/abc.def'],
      sentAt: '2024-05-04T14:21:56.695Z',
    });
    expect(log.infos).toEqual([
      'Mail to jane@example.com: Reset your Waymark password http://maps.example/change-password/abc.def',
    ]);
    expect(await readOutbox(outbox)).toEqual([mail]);
  });

  it('escapes user data in the HTML body', () => {
    const message = confirmEmailMessage('a@example.com', '<b>x</b>', 'http://h/confirm-email/t');
    expect(message.html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(message.html).not.toContain('<b>x</b>');
    expect(message.text).toContain('<b>x</b>');
  });

  it('reads a missing outbox as empty', async () => {
    expect(await readOutbox(path.join(dir, 'nothing'))).toEqual([]);
  });
});

describe('createMailer and deliver', () => {
  it('uses SMTP when SMTP_URL is set, the outbox otherwise', () => {
    const log = recorder();
    const config = { dataDir: dir, mailFrom: 'Waymark <no-reply@example.org>' };
    expect(createMailer({ ...config, smtpUrl: null }, log)).toBeInstanceOf(OutboxMailer);
    expect((createMailer({ ...config, smtpUrl: null }, log) as OutboxMailer).dir).toBe(
      path.join(dir, 'outbox'),
    );
    expect(createMailer({ ...config, smtpUrl: 'smtp://localhost:2525' }, log)).toBeInstanceOf(
      SmtpMailer,
    );
  });

  it('logs a failed send at error level instead of throwing', async () => {
    const log = recorder();
    const failing = {
      send: async () => {
        throw new Error('connection refused');
      },
    };
    const message = confirmEmailMessage('a@example.com', 'a', 'http://h/confirm-email/t');
    expect(await deliver(failing, log, message)).toBe(false);
    expect(log.errors).toEqual([
      {
        object: expect.objectContaining({ to: 'a@example.com', err: expect.any(Error) }),
        message: 'Could not send mail to a@example.com: Confirm your Waymark email address',
      },
    ]);
  });

  it('reports a refused SMTP connection as a failed delivery', async () => {
    const log = recorder();
    // Port 1 on localhost: nothing listens, the connection is refused at once.
    const mailer = new SmtpMailer('smtp://127.0.0.1:1', 'Waymark <no-reply@example.org>');
    const message = confirmEmailMessage('a@example.com', 'a', 'http://h/confirm-email/t');
    expect(await deliver(mailer, log, message)).toBe(false);
    expect(log.errors).toHaveLength(1);
  });
});
