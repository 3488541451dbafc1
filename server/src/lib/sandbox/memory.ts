/** Telling that work ran out of memory, and reading a process's memory. */
import { readFile } from 'node:fs/promises';
import Database from 'better-sqlite3';

/** Whether an error means the work ran out of memory (SQLite's or JavaScript's). */
export function isOutOfMemory(error: unknown): boolean {
  if (error instanceof Database.SqliteError) {
    return error.code === 'SQLITE_NOMEM' || error.code === 'SQLITE_TOOBIG';
  }
  return (
    error instanceof RangeError &&
    /allocation failed|invalid (string|array|typed array) length|out of memory/i.test(error.message)
  );
}

/** Resident memory of a process in bytes (Linux /proc); null where it cannot be read. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
