/**
 * The embedded database's lock (db/data-dir-lock.ts) trusts no PID alone: a stale lock whose
 * PID now belongs to another live process, a lock from another boot, and a lock of a zombie
 * (a server killed with -9 whose parent has not reaped it) are taken over; a lock of the
 * live owner is not. Linux only (/proc), like the deployments.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  bootId,
  DatabaseLockedError,
  LOCK_FILE,
  parseLock,
  processStat,
  takeDataDirLock,
} from '../../server/src/db/data-dir-lock';
import { openPglite } from '../../server/src/db/database';
import { freePort, REPO_ROOT } from './support/processes';
import { createTestDataDir, type TestDataDir } from './support/test-db';

const started: ChildProcess[] = [];
let data: TestDataDir;
let lockFile: string;
let dir: string;

beforeAll(async () => {
  data = await createTestDataDir();
  lockFile = path.join(data.dataDir, LOCK_FILE);
  dir = path.join(data.dataDir, 'pglite');
});
afterEach(() => fs.rmSync(lockFile, { force: true }));
afterAll(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  await data?.cleanup();
});

/** Runs `sh -c script`; resolves with the child once its first output line arrives. */
function shell(script: string, env: Record<string, string> = {}) {
  return new Promise<{ child: ChildProcess; firstLine: string; output: () => string }>(
    (resolve, reject) => {
      const child = spawn('sh', ['-c', script], {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: process.env.HOME ?? '/tmp',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(child);
      let output = '';
      child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stdout!.on('data', (chunk: Buffer) => {
        const before = output.includes('\n');
        output += chunk.toString();
        if (!before && output.includes('\n')) {
          resolve({ child, firstLine: output.split('\n')[0]!.trim(), output: () => output });
        }
      });
      child.on('error', reject);
    },
  );
}

/** Polls (no fixed sleep) until `condition` holds, for at most `ms`. */
async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A live process unrelated to the database. */
async function liveStranger(): Promise<number> {
  const { firstLine } = await shell('echo $$; exec sleep 600');
  return Number(firstLine);
}

/** Whether `pid` runs `sleep` (its shell has exec'd it). */
const runsSleep = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
  } catch {
    return false;
  }
};

/**
 * Makes `pid`, a child of the shell `parent`, a zombie: once the shell has exec'd `sleep`
 * (which never reaps a child), kills it with -9 and waits for the Z state.
 */
async function killIntoZombie(pid: number, parent: ChildProcess): Promise<void> {
  await until(() => runsSleep(parent.pid!), 'the parent to exec sleep');
  process.kill(pid, 'SIGKILL');
  await until(() => processStat(pid)?.state === 'Z', 'the zombie');
}

/** A zombie: a killed child whose parent (`sleep`, after exec) never reaps it. */
async function zombie(): Promise<number> {
  const { child, firstLine } = await shell('sleep 600 & echo $!; exec sleep 600');
  const pid = Number(firstLine);
  await killIntoZombie(pid, child);
  return pid;
}

function writeLock(content: unknown, writtenAt?: Date) {
  fs.writeFileSync(lockFile, typeof content === 'string' ? content : JSON.stringify(content));
  if (writtenAt) fs.utimesSync(lockFile, writtenAt, writtenAt);
}

function expectTakenOver() {
  const release = takeDataDirLock(data.dataDir, dir);
  expect(parseLock(fs.readFileSync(lockFile, 'utf8'))?.pid).toBe(process.pid);
  release();
  expect(fs.existsSync(lockFile)).toBe(false);
}

function expectHeld(pid: number) {
  const before = fs.readFileSync(lockFile, 'utf8');
  expect(() => takeDataDirLock(data.dataDir, dir)).toThrow(DatabaseLockedError);
  expect(() => takeDataDirLock(data.dataDir, dir)).toThrow(`(pid ${pid})`);
  expect(fs.readFileSync(lockFile, 'utf8')).toBe(before);
}

describe.runIf(fs.existsSync('/proc/self/stat'))('the data directory lock', () => {
  it('records PID, start time and boot id', () => {
    const release = takeDataDirLock(data.dataDir, dir);
    try {
      expect(parseLock(fs.readFileSync(lockFile, 'utf8'))).toEqual({
        pid: process.pid,
        startTime: processStat(process.pid)!.startTime,
        bootId: bootId(),
      });
    } finally {
      release();
    }
  });

  it('takes over a stale lock whose PID now belongs to another live process', async () => {
    const pid = await liveStranger();
    writeLock({ pid, startTime: '1', bootId: bootId() });
    expectTakenOver();
    // A lock of an older version (PID only), written before that process started.
    writeLock(String(pid), new Date(Date.now() - 3600_000));
    expectTakenOver();
    // A lock written on another boot.
    writeLock({ pid, startTime: processStat(pid)!.startTime, bootId: 'another-boot' });
    expectTakenOver();
    // A lock naming this very process (an earlier one with the same PID, as PID 1 after a
    // container restart).
    writeLock({ pid: process.pid, startTime: '1', bootId: bootId() });
    expectTakenOver();
  });

  it('keeps a lock whose owner runs', async () => {
    const pid = await liveStranger();
    writeLock({ pid, startTime: processStat(pid)!.startTime, bootId: bootId() });
    expectHeld(pid);
    // PID only, written after the process started: it may be the owner.
    writeLock(String(pid), new Date(Date.now() + 5000));
    expectHeld(pid);
  });

  it('takes over the lock of a zombie', async () => {
    const pid = await zombie();
    writeLock({ pid, startTime: processStat(pid)!.startTime, bootId: bootId() });
    expectTakenOver();
    writeLock(String(pid), new Date(Date.now() + 5000));
    expectTakenOver();
  });

  it('takes over unreadable locks', () => {
    for (const text of ['', 'garbage', '{"pid": -4}', '{"pid": "12"}']) {
      writeLock(text);
      expectTakenOver();
    }
  });
});

describe.runIf(fs.existsSync('/proc/self/stat'))('a server killed with -9', () => {
  it(
    'can be restarted at once while the killed process is still a zombie',
    { timeout: 120_000 },
    async (ctx) => {
      if (data.kind !== 'pglite') ctx.skip();
      // The server's parent becomes `sleep` (exec), which never reaps it.
      const server = await shell(
        `"${process.execPath}" --import tsx server/src/main.ts & echo $!; exec sleep 600`,
        { ...data.env, HOST: '127.0.0.1', PORT: String(await freePort()), LOG_LEVEL: 'silent' },
      );
      const pid = Number(server.firstLine);
      await until(() => server.output().includes('Waymark is running'), 'the server', 90_000);
      expect(parseLock(fs.readFileSync(lockFile, 'utf8'))?.pid).toBe(pid);
      // While it runs, nobody else opens the database.
      await expect(openPglite(data.dataDir)).rejects.toThrow(DatabaseLockedError);

      await killIntoZombie(pid, server.child);
      const database = await openPglite(data.dataDir);
      try {
        const rows = await database.withClient((client) => client.query('select 1 as one'));
        expect(rows).toEqual([{ one: 1 }]);
        expect(parseLock(fs.readFileSync(lockFile, 'utf8'))?.pid).toBe(process.pid);
      } finally {
        await database.close();
      }
    },
  );
});
