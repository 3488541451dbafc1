// Drives the real admin commands against the running e2e server (through its control socket,
// as `npm run admin` does while a server runs) and reads the mails the server wrote to its
// outbox.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { e2eDataDir } from './env';
import { unique } from './unique';

interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** One HTTP request over a Unix socket, from the test's own process; status and body. */
function post(
  socketPath: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request({ socketPath, method: 'POST', path: '/command', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    call.on('error', reject);
    call.end(body);
  });
}

/**
 * Posts one request to the control socket (server/src/admin/control-socket.ts: POST /command,
 * the secret as bearer token, {argv, cwd}) from the worker itself: no process per call, and the
 * worker's other tests go on while the server answers (a spawned client blocked the worker, and
 * cost a Node start each call on a busy machine).
 */
async function throughSocket(args: string[]): Promise<CommandResult | null> {
  const socketPath = join(e2eDataDir, 'admin.sock');
  if (!existsSync(socketPath)) return null;
  const secret = readFileSync(join(e2eDataDir, 'admin.secret'), 'utf8').trim();
  let answer: { status: number; text: string };
  try {
    answer = await post(
      socketPath,
      { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      JSON.stringify({ argv: args, cwd: process.cwd() }),
    );
  } catch (error) {
    throw new Error(`admin ${args.join(' ')}: no answer from ${socketPath}: ${String(error)}`, {
      cause: error,
    });
  }
  if (answer.status !== 200) {
    throw new Error(
      `admin ${args.join(' ')}: the server refused it (HTTP ${answer.status}): ${answer.text}`,
    );
  }
  return JSON.parse(answer.text) as CommandResult;
}

/** The admin CLI itself, for when no server listens on the socket. */
async function throughCli(args: string[]): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'server/src/cli.ts', ...args],
      {
        env: { ...process.env, DATA_DIR: e2eDataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: failed.stderr ?? String(error),
    };
  }
}

/** Runs one admin command (`npm run admin -- ...args`); its output, or throws when it failed. */
export async function admin(...args: string[]): Promise<string> {
  const result = (await throughSocket(args)) ?? (await throughCli(args));
  if (result.code !== 0) {
    throw new Error(
      `admin ${args.join(' ')} failed (${result.code}): ${result.stderr}${result.stdout}`,
    );
  }
  return result.stdout;
}

/** Creates a fresh user for one test; the password satisfies the password rule. */
export async function createUser(
  prefix = 'user',
): Promise<{ username: string; email: string; password: string }> {
  const username = `${prefix}${unique()}`;
  const user = { username, email: `${username}@example.com`, password: 'Field-Surv3y!' };
  await admin('user', 'create', user.username, user.email, user.password);
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
