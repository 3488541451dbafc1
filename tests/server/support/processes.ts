/** Helpers for tests that run the real entry points (main.ts, cli.ts) or bind real ports. */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { getPriority } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Work on users' files runs at the test's own priority (FILE_WORK_NICE: this process's nice
 * value, 0 for a plain `npm test`): the suite's other workers keep both cores busy, and
 * children at nice 10 would wait behind them for minutes (a background conversion that takes
 * two minutes quiet did not finish in fifteen). A suite run under `nice -n 19` keeps its
 * children at 19 too: FILE_WORK_NICE 0 would raise them above it (the pool sets the value,
 * and as root it may lower it) and take the CPU from what the run was niced to leave it to.
 */
export const TEST_FILE_WORK = {
  FILE_WORK_NICE: String(Math.min(19, Math.max(0, getPriority()))),
} as const;

/**
 * Runs `<script> ...args` with tsx's loader (`node --import tsx`) and only the given
 * environment (plus PATH/HOME). Not the `tsx` command: it starts a second Node process to
 * run the script in (about 0.3 s of CPU and seconds on a busy machine, per run).
 */
export function runTsx(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, script), ...args],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          LOG_LEVEL: 'silent',
          ...TEST_FILE_WORK,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function runCli(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  return runTsx('server/src/cli.ts', args, env);
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
