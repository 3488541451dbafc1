/**
 * The embedded database's lock: DATA_DIR/pglite.lock names the process that has the files
 * open, so a second server (or a direct CLI call) stops with a clear message instead of
 * corrupting them. A PID alone is not proof of ownership: after a container restart the
 * PID of a dead server often belongs to another live process, and a server killed with -9
 * stays a zombie until its parent reaps it. So the lock records the owner's PID, its start
 * time (field 22 of /proc/<pid>/stat, in clock ticks since boot) and the boot id, and a lock
 * is held only while a live process (not a zombie) with that PID and start time runs on
 * that boot. Where /proc is missing (macOS), a live PID holds the lock, as before.
 */
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'pglite.lock';

export class DatabaseLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        'Stop that process first, or send admin commands through the running server.',
    );
    this.name = 'DatabaseLockedError';
  }
}

/** What a lock file says about its owner. */
export interface LockOwner {
  pid: number;
  /** Start time in clock ticks since boot; null in locks of older versions (PID only). */
  startTime: string | null;
  bootId: string | null;
}

interface ProcessStat {
  /** R, S, D, T, Z (zombie), X (dead), … */
  state: string;
  startTime: string;
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** Whether this system has Linux's /proc (else only PIDs can be checked). */
function hasProc(): boolean {
  return fs.existsSync(`/proc/${process.pid}/stat`);
}

/** State and start time of a process from /proc, or null when there is no such process. */
export function processStat(pid: number): ProcessStat | null {
  const text = readText(`/proc/${pid}/stat`);
  if (text === null) return null;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses; the rest cannot.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : null;
}

export function bootId(): string | null {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() || null;
}

/** Seconds since the epoch at which the system booted (/proc/stat btime). */
function bootTimeSeconds(): number | null {
  const match = /^btime (\d+)$/m.exec(readText('/proc/stat') ?? '');
  return match ? Number(match[1]) : null;
}

/** Linux's USER_HZ: the unit of /proc start times (100 on every common platform). */
const CLOCK_TICKS_PER_SECOND = 100;

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** This process as a lock owner. */
export function currentOwner(): LockOwner {
  return {
    pid: process.pid,
    startTime: processStat(process.pid)?.startTime ?? null,
    bootId: bootId(),
  };
}

/** Reads a lock file's text: the JSON of a LockOwner, or a bare PID (older versions). */
export function parseLock(text: string): LockOwner | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed), startTime: null, bootId: null };
  try {
    const value = JSON.parse(trimmed) as Partial<LockOwner>;
    if (!Number.isSafeInteger(value.pid) || value.pid! <= 0) return null;
    return {
      pid: value.pid!,
      startTime: typeof value.startTime === 'string' ? value.startTime : null,
      bootId: typeof value.bootId === 'string' ? value.bootId : null,
    };
  } catch {
    return null;
  }
}

/**
 * Whether the lock's owner still runs. `writtenAt` (the lock file's mtime) checks locks
 * without a start time: a process that started after the lock was written cannot own it.
 */
export function ownerRuns(owner: LockOwner, writtenAt: Date): boolean {
  // This process opens each directory once (checked before): a lock naming its PID was
  // left by an earlier process that had the same PID (PID 1 in a restarted container).
  if (owner.pid === process.pid) return false;
  if (!hasProc()) return pidAlive(owner.pid);
  if (owner.bootId !== null && owner.bootId !== bootId()) return false;
  const stat = processStat(owner.pid);
  if (stat === null || stat.state === 'Z' || stat.state === 'X') return false;
  if (owner.startTime !== null) return stat.startTime === owner.startTime;
  const booted = bootTimeSeconds();
  if (booted === null) return true;
  const startedMs = (booted + Number(stat.startTime) / CLOCK_TICKS_PER_SECOND) * 1000;
  // One second of slack: btime and the start time are whole seconds and ticks.
  return startedMs <= writtenAt.getTime() + 1000;
}

/**
 * Takes DATA_DIR/pglite.lock for `dir`, or throws DatabaseLockedError while its owner runs.
 * A lock left by a process that no longer runs is taken over. Returns the release function.
 */
export function takeDataDirLock(dataDir: string, dir: string): () => void {
  const lockFile = path.join(dataDir, LOCK_FILE);
  const owner = currentOwner();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(owner), { flag: 'wx' });
      return () => {
        // Only our own lock: never one another process took over meanwhile.
        const current = parseLock(readText(lockFile) ?? '');
        if (current?.pid === owner.pid && current.startTime === owner.startTime) {
          fs.rmSync(lockFile, { force: true });
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const text = readText(lockFile);
      if (text === null) continue; // removed meanwhile: try again
      const existing = parseLock(text);
      let writtenAt: Date;
      try {
        writtenAt = fs.statSync(lockFile).mtime;
      } catch {
        continue;
      }
      if (existing && ownerRuns(existing, writtenAt)) {
        throw new DatabaseLockedError(dir, existing.pid);
      }
      // Left behind by a process that no longer runs: take it over.
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not take the database lock ${lockFile}`);
}
