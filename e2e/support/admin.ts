// Drives the real admin command line against the running e2e server (through its control
// socket) and reads the mails the server wrote to its outbox.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { e2eDataDir } from './env';
import { unique } from './unique';

export function admin(...args: string[]): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: e2eDataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (run.status !== 0) {
    throw new Error(`admin ${args.join(' ')} failed (${run.status}): ${run.stderr}${run.stdout}`);
  }
  return run.stdout;
}

/** Creates a fresh user for one test; the password satisfies the password rule. */
export function createUser(prefix = 'user'): { username: string; email: string; password: string } {
  const username = `${prefix}${unique()}`;
  const user = { username, email: `${username}@example.com`, password: 'Field-Surv3y!' };
  admin('user', 'create', user.username, user.email, user.password);
  return user;
}

interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  sentAt: string;
}

function mailsTo(address: string): OutboxMail[] {
  const dir = join(e2eDataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as OutboxMail)
    .filter((mail) => mail.to.toLowerCase().includes(address.toLowerCase()));
}

/** Waits for a mail to `address` with a link containing `linkPart`; returns that link's path. */
export async function linkFromOutbox(address: string, linkPart: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(() => {
      link = mailsTo(address)
        .flatMap((mail) => mail.links)
        .reverse()
        .find((candidate) => candidate.includes(linkPart));
      return link;
    })
    .toBeTruthy();
  const url = new URL(link!);
  return url.pathname + url.search;
}
