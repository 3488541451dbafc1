// Drives the real admin commands against the running e2e server (through its control socket,
// as `npm run admin` does while a server runs) and reads the mails the server wrote to its
// outbox.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { e2eDataDir } from './env';
import { unique } from './unique';

/**
 * Posts one request to the control socket (server/src/admin/control-socket.ts: POST /command,
 * the secret as bearer token, {argv, cwd}) and prints the answer. Plain JavaScript for a bare
 * `node`: the admin CLI under tsx loads the whole server first, 12-30 s a call on a busy
 * 2-core machine against well under a second for this.
 */
const SOCKET_CLIENT = `
const http = require('node:http');
const { socketPath, secret, body } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
const request = http.request(
  { socketPath, method: 'POST', path: '/command', headers: {
    authorization: 'Bearer ' + secret, 'content-type': 'application/json' } },
  (res) => {
    const chunks = [];
    res.on('data', (chunk) => chunks.push(chunk));
    res.on('end', () => {
      process.stdout.write(JSON.stringify({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
  },
);
request.on('error', (error) => { process.stderr.write(String(error)); process.exit(3); });
request.end(body);
`;

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

function throughSocket(args: string[]): CommandResult | null {
  const socketPath = join(e2eDataDir, 'admin.sock');
  if (!existsSync(socketPath)) return null;
  const secret = readFileSync(join(e2eDataDir, 'admin.secret'), 'utf8').trim();
  const run = spawnSync(process.execPath, ['-e', SOCKET_CLIENT], {
    input: JSON.stringify({
      socketPath,
      secret,
      body: JSON.stringify({ argv: args, cwd: process.cwd() }),
    }),
    encoding: 'utf8',
  });
  if (run.status !== 0)
    throw new Error(`admin ${args.join(' ')}: no answer from ${socketPath}: ${run.stderr}`);
  const answer = JSON.parse(run.stdout) as { status: number; text: string };
  if (answer.status !== 200) {
    throw new Error(
      `admin ${args.join(' ')}: the server refused it (HTTP ${answer.status}): ${answer.text}`,
    );
  }
  return JSON.parse(answer.text) as CommandResult;
}

/** The admin CLI itself, for when no server listens on the socket. */
function throughCli(args: string[]): CommandResult {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/src/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: e2eDataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  return { code: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
}

export function admin(...args: string[]): string {
  const result = throughSocket(args) ?? throughCli(args);
  if (result.code !== 0) {
    throw new Error(
      `admin ${args.join(' ')} failed (${result.code}): ${result.stderr}${result.stdout}`,
    );
  }
  return result.stdout;
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
