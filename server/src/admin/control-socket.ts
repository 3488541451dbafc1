/**
 * The admin control channel. The embedded database can be opened by one process only, so
 * while the server runs, `npm run admin` sends its command line to the server through a Unix
 * socket DATA_DIR/admin.sock (mode 0600) and the server runs it with the same command
 * functions. Each request carries the secret from DATA_DIR/admin.secret (0600, renewed on
 * every server start). Protocol: POST /command, `Authorization: Bearer <secret>`,
 * JSON {"argv": [...]} → JSON {"code","stdout","stderr"}.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Config } from '../config';
import type { Database } from '../db/database';
import { runAdminCommand, type CommandContext, type CommandResult } from './commands';

export const SOCKET_FILE = 'admin.sock';
export const SECRET_FILE = 'admin.secret';
const MAX_BODY = 64 * 1024;

export function socketPath(dataDir: string): string {
  return path.join(dataDir, SOCKET_FILE);
}

export function secretPath(dataDir: string): string {
  return path.join(dataDir, SECRET_FILE);
}

function writeSecret(dataDir: string): string {
  const secret = randomBytes(32).toString('base64url');
  const file = secretPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, secret, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return secret;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Probes a socket file: true when a server answers on it. */
export function socketAnswers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.request({ socketPath: file, method: 'GET', path: '/health' }, (res) => {
      res.resume();
      resolve(true);
    });
    request.setTimeout(2000, () => request.destroy());
    request.on('error', () => resolve(false));
    request.end();
  });
}

export interface ControlSocket {
  readonly path: string;
  close(): Promise<void>;
}

export interface ControlSocketLogger {
  warn(message: string): void;
  error(obj: unknown, message: string): void;
}

/**
 * Starts listening on DATA_DIR/admin.sock. Returns null (and logs why) when the socket
 * cannot be used, e.g. another server on the same DATA_DIR already owns it.
 */
export async function startControlSocket(
  config: Config,
  database: Database,
  log: ControlSocketLogger,
  running?: Pick<CommandContext, 'fileStoreWork' | 'fileStore'>,
): Promise<ControlSocket | null> {
  const file = socketPath(config.dataDir);
  if (fs.existsSync(file)) {
    if (await socketAnswers(file)) {
      log.warn(`${file} is served by another process; admin commands will go there`);
      return null;
    }
    fs.rmSync(file, { force: true });
  }
  const secret = writeSecret(config.dataDir);

  const server = http.createServer((req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/health') return reply(200, { ok: true });
    if (req.method !== 'POST' || req.url !== '/command') return reply(404, { error: 'not found' });
    const auth = String(req.headers.authorization ?? '');
    if (!auth.startsWith('Bearer ') || !sameSecret(auth.slice(7), secret)) {
      return reply(401, { error: 'unauthorized' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reply(413, { error: 'too large' });
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (res.headersSent) return;
      let argv: unknown;
      let cwd: unknown;
      try {
        ({ argv, cwd } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          argv?: unknown;
          cwd?: unknown;
        });
      } catch {
        return reply(400, { error: 'invalid JSON' });
      }
      if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) {
        return reply(400, { error: 'argv must be a list of strings' });
      }
      if (cwd !== undefined && typeof cwd !== 'string') {
        return reply(400, { error: 'cwd must be a string' });
      }
      runAdminCommand(argv, {
        config,
        cwd,
        getDatabase: async () => database,
        fileStoreWork: running?.fileStoreWork,
        fileStore: running?.fileStore,
      }).then(
        (result: CommandResult) => reply(200, result),
        (error: unknown) => {
          log.error({ err: error }, 'admin command failed');
          reply(200, {
            code: 1,
            stdout: '',
            stderr: `Command failed: ${(error as Error).message}\n`,
          });
        },
      );
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(file, () => {
        server.off('error', reject);
        resolve();
      });
    });
    fs.chmodSync(file, 0o600);
  } catch (error) {
    log.warn(`admin socket ${file} unavailable: ${(error as Error).message}`);
    fs.rmSync(secretPath(config.dataDir), { force: true });
    return null;
  }

  return {
    path: file,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fs.rmSync(file, { force: true });
        fs.rmSync(secretPath(config.dataDir), { force: true });
      }),
  };
}

/**
 * Sends a command line to the running server. Resolves null when no server listens (a stale
 * socket file is removed), so the caller can open the database itself.
 */
export async function sendControlCommand(
  dataDir: string,
  argv: string[],
): Promise<CommandResult | null> {
  const file = socketPath(dataDir);
  if (!fs.existsSync(file)) return null;
  let secret: string;
  try {
    secret = fs.readFileSync(secretPath(dataDir), 'utf8').trim();
  } catch {
    secret = '';
  }
  // The CLI's working folder travels along, so relative paths mean what the operator typed.
  const body = JSON.stringify({ argv, cwd: process.cwd() });
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        socketPath: file,
        method: 'POST',
        path: '/command',
        headers: {
          authorization: `Bearer ${secret}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) {
            reject(
              new Error(`The running server refused the command (HTTP ${res.statusCode}): ${text}`),
            );
            return;
          }
          try {
            resolve(JSON.parse(text) as CommandResult);
          } catch {
            reject(new Error('The running server sent an invalid answer'));
          }
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') {
        // Nobody listens: the server stopped without removing its socket.
        if (error.code === 'ECONNREFUSED') fs.rmSync(file, { force: true });
        resolve(null);
      } else {
        reject(error);
      }
    });
    request.end(body);
  });
}
