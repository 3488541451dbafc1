/** The mailer used when SMTP_URL is set: nodemailer's SMTP transport, one connection per mail. */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './mailer';

/** Bounded waits, so a stalled mail server cannot hold a request for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, from: string) {
    this.transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS }, { from });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
  }
}
