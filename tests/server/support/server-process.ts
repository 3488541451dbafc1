/**
 * A real server process (server/src/main.ts) for tests that kill or restart it
 * (faults-kill, webhooks-kill, file-store-convert), and a cookie session to it over HTTP.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import { REPO_ROOT, TEST_FILE_WORK } from './processes';

/** Loaded into a server started with `{ clockOffsetMs }`: its dates run that far ahead. */
const CLOCK_OFFSET = pathToFileURL(path.join(REPO_ROOT, 'tests/clock-offset.mjs')).href;

/**
 * Starts main.ts with only `env` (plus PATH and HOME); resolves once it listens, rejects
 * with its output when it exits before. Node itself runs it (not the tsx wrapper), so a
 * SIGKILL reaches the server. `clockOffsetMs`: every date the server makes is that far ahead
 * of the machine's (tests/clock-offset.mjs), to be past a deadline without waiting for it.
 */
export function startServer(
  env: Record<string, string>,
  { clockOffsetMs = 0 }: { clockOffsetMs?: number } = {},
): Promise<ChildProcess> {
  const clock = clockOffsetMs === 0 ? [] : ['--import', CLOCK_OFFSET];
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', ...clock, path.join(REPO_ROOT, 'server/src/main.ts')],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          ...TEST_FILE_WORK,
          ...env,
          ...(clockOffsetMs === 0 ? {} : { CLOCK_OFFSET_MS: String(clockOffsetMs) }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Waymark is running')) resolve(proc);
    });
    proc.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    proc.on('exit', (code, signal) => {
      if (!output.includes('Waymark is running')) {
        reject(new Error(`The server exited (${code ?? signal}): ${output}`));
      }
    });
  });
}

/** Whether the process is still running. */
export function isRunning(proc: ChildProcess | null): proc is ChildProcess {
  return proc !== null && proc.exitCode === null && proc.signalCode === null;
}

/** SIGKILL, resolved once the process is gone. */
export async function killServer(proc: ChildProcess): Promise<void> {
  if (!isRunning(proc)) return;
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  proc.kill('SIGKILL');
  await exited;
}

/** A cookie session over real HTTP: keeps the cookies and the CSRF token it is handed. */
export class HttpSession {
  cookies = new Map<string, string>();
  csrf: string | null = null;
  constructor(readonly base: string) {}

  /** `body`: bytes (application/octet-stream) or an object (JSON). */
  async request(method: string, url: string, body?: Buffer | object): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    if (this.csrf) headers['x-csrf-token'] = this.csrf;
    let payload: Buffer | string | undefined;
    if (Buffer.isBuffer(body)) {
      headers['content-type'] = 'application/octet-stream';
      payload = body;
    } else if (body) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(`${this.base}${url}`, { method, headers, body: payload });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
    const token = response.headers.get('x-csrf-token');
    if (token) this.csrf = token;
    return response;
  }

  /** GET /app/init, then signs in (a 200 expected). */
  async signIn(login: string, password: string): Promise<this> {
    expect((await this.request('GET', '/app/init')).status).toBe(200);
    const response = await this.request('POST', '/app/auth/login', { login, password });
    expect(response.status, await response.clone().text()).toBe(200);
    return this;
  }
}
