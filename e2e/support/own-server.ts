// A server of one spec's own (its own port and data directory), for tests that need a server
// configuration the shared e2e server does not have (e.g. a small GLOBAL_STORAGE).
import { spawn, type ChildProcess } from 'node:child_process';
import { expect } from '@playwright/test';
import { e2eAdmin, e2eServerEnv } from './env';

export class OwnServer {
  private child: ChildProcess | null = null;

  constructor(
    readonly port: number,
    readonly dataDir: string,
    /** Extra environment variables (server configuration) for this server. */
    readonly env: Record<string, string> = {},
    /** Modules loaded before the server (`--import`, after tsx), e.g. ./server-clock.ts. */
    readonly imports: string[] = [],
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts the server and waits until /ping answers. */
  async start(): Promise<void> {
    const imports = this.imports.flatMap((module) => ['--import', module]);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', ...imports, 'scripts/e2e-server.ts'],
      {
        cwd: process.cwd(),
        env: {
          ...process.env,
          PORT: String(this.port),
          HOST: '127.0.0.1',
          DATA_DIR: this.dataDir,
          ADMIN_USERNAME: e2eAdmin.username,
          ADMIN_EMAIL: 'admin@example.com',
          ADMIN_PASSWORD: e2eAdmin.password,
          DATABASE_URL: '',
          LOG_LEVEL: 'warn',
          // Work on files at the browsers' priority (as the e2e server).
          FILE_WORK_NICE: e2eServerEnv.FILE_WORK_NICE!,
          ...this.env,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    this.child = child;
    await expect
      .poll(
        async () => {
          if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode})`);
          return fetch(`${this.url}/ping`).then(
            (r) => r.status,
            () => 0,
          );
        },
        { timeout: 180_000, intervals: [250] },
      )
      .toBe(200);
  }

  /**
   * Moves the server's clock CLOCK_JUMP_MS further ahead (a server started with that variable
   * and tests/clock-offset.mjs among its imports). The signal is handled on the server's next
   * turn: wait for what the jump changes, not for the call.
   */
  jumpClock(): void {
    if (!this.child || this.child.exitCode !== null) throw new Error('The server is not running');
    this.child.kill('SIGUSR2');
  }

  /** Stops the server: SIGTERM shuts down gracefully, SIGKILL is a crash. */
  async stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }
}
