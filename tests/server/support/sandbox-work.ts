/**
 * Work for the sandbox's tests (server/src/lib/sandbox/runner.test.ts), run in its child
 * processes: answers, errors, and work that never ends or never stops growing.
 */
import { existsSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { HttpProblem } from '../../../server/src/errors';

let calls = 0;

/** Its arguments back, with a Buffer, the child's pid and how often it was called there. */
export function echo(value: unknown): {
  value: unknown;
  bytes: Buffer;
  pid: number;
  calls: number;
} {
  calls++;
  return { value, bytes: Buffer.from('mvt'), pid: process.pid, calls };
}

/** Waits `ms` (not busy), then answers its pid. */
export async function wait(ms: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return process.pid;
}

/** Never ends, and never yields: as SQLite inside a recursive view. */
export function spin(marker?: string): never {
  if (marker) writeFileSync(marker, String(process.pid));
  for (;;) {
    // busy
  }
}

/** A recursive query without end, in SQLite. */
export function recurse(): unknown {
  const db = new Database(':memory:');
  return db
    .prepare(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
    )
    .get();
}

/** Memory outside V8's heap that grows until stopped. */
export function grow(): never {
  const kept: Buffer[] = [];
  for (;;) kept.push(Buffer.alloc(8 * 1024 * 1024, 1));
}

/** A string SQLite builds past its heap limit. */
export function sqliteHog(): unknown {
  const db = new Database(':memory:');
  return db
    .prepare(
      `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50000000)
       SELECT length(group_concat(printf('%01000d', x))) FROM c`,
    )
    .get();
}

/** An HTTP problem about the request. */
export function refuse(): never {
  throw new HttpProblem(404, 'Layer nowhere not found');
}

export class TestRefusal extends Error {
  constructor(readonly reason: string) {
    super(`Refused: ${reason}`);
    this.name = 'TestRefusal';
  }
}

/** An error the caller rebuilds by its name. */
export function refuseWithReason(reason: string): never {
  throw new TestRefusal(reason);
}

/** Waits (not busy) until `file` exists, then answers its pid. */
export async function waitFor(file: string): Promise<number> {
  while (!existsSync(file)) await new Promise((resolve) => setTimeout(resolve, 20));
  return process.pid;
}
