/** The mails the server sends: plain text and an equivalent simple HTML body. */
import type { MailMessage } from './mailer';

const PRODUCT = 'Waymark';

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function message(
  to: string,
  subject: string,
  lines: string[],
  link: { url: string; label: string },
  after: string[],
): MailMessage {
  const text = [...lines, '', link.url, '', ...after].join('\n') + '\n';
  const paragraphs = (parts: string[]) => parts.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const url = escapeHtml(link.url);
  const html = [
    '<!doctype html>',
    `<html><body style="font-family: sans-serif">`,
    paragraphs(lines),
    `<p><a href="${url}">${escapeHtml(link.label)}</a></p>`,
    `<p style="font-size: smaller">${url}</p>`,
    paragraphs(after),
    '</body></html>',
  ].join('\n');
  return { to, subject, text, html };
}

export function resetPasswordMessage(to: string, username: string, url: string): MailMessage {
  return message(
    to,
    `Reset your ${PRODUCT} password`,
    [
      `Hello ${username},`,
      `Someone asked to reset the password of your ${PRODUCT} account. To choose a new password, open this link within one hour:`,
    ],
    { url, label: 'Choose a new password' },
    ['If you did not ask for this, ignore this email: your password stays as it is.'],
  );
}

export function confirmEmailMessage(to: string, username: string, url: string): MailMessage {
  return message(
    to,
    `Confirm your ${PRODUCT} email address`,
    [
      `Hello ${username},`,
      `Please confirm that ${to} is the email address of your ${PRODUCT} account by opening this link within 12 hours:`,
    ],
    { url, label: 'Confirm email address' },
    ['If you did not ask for this, ignore this email.'],
  );
}

export function accessRequestMessage(
  to: string,
  ownerName: string,
  requester: string,
  projectPath: string,
  url: string,
): MailMessage {
  return message(
    to,
    `${requester} asks for access to ${projectPath}`,
    [
      `Hello ${ownerName},`,
      `${requester} has asked for access to the project ${projectPath}. The request expires in 7 days. To accept or decline it, open the project's collaborators:`,
    ],
    { url, label: 'Open collaborators' },
    ['You receive this email because you own the project.'],
  );
}

export function workspaceInvitationMessage(
  to: string,
  inviter: string,
  workspace: string,
  role: string,
  url: string,
): MailMessage {
  return message(
    to,
    `${inviter} invites you to the ${PRODUCT} workspace ${workspace}`,
    [
      'Hello,',
      `${inviter} invites you to join the workspace ${workspace} as ${role}. To accept, open this link within 7 days and sign in with this email address:`,
    ],
    { url, label: 'Accept the invitation' },
    ['If you do not want to join, ignore this email.'],
  );
}
