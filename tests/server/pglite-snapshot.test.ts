/**
 * Database.snapshot on PGlite (server/src/db/pglite-snapshot.ts): the snapshot statement is
 * skipped only while no statement at all ran since the last one, and every commit, by any
 * path (Drizzle, transactions, raw SQL), gives a new snapshot at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, type Database } from '../../server/src/db/database';

let dir: string;
let database: Database;
let client: PGlite;
let execs = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waymark-pglite-snapshot-'));
  database = await openPglite(dir);
  client = (database.db as unknown as { $client: PGlite }).$client;
  const exec = client.exec.bind(client);
  client.exec = (...args: Parameters<PGlite['exec']>) => {
    execs++;
    return exec(...args);
  };
  await database.db.execute(sql`create table t (n int)`);
});

afterAll(async () => {
  await database?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The snapshot, and how many snapshot statements reading it took. */
async function snapshot(): Promise<{ text: string; statements: number }> {
  const before = execs;
  const text = await database.snapshot();
  return { text, statements: execs - before };
}

describe('PGlite snapshot', () => {
  it('is read once, then known while nothing runs', async () => {
    const first = await snapshot();
    expect(first.statements).toBe(1);
    expect(first.text).toMatch(/^\d+:\d+:/);
    expect(await snapshot()).toEqual({ text: first.text, statements: 0 });
  });

  it('is read again after a read-only statement, with the same text', async () => {
    const first = await snapshot();
    await database.db.execute(sql`select count(*) from t`);
    expect(await snapshot()).toEqual({ text: first.text, statements: 1 });
  });

  it('changes with a commit through Drizzle, a transaction or raw SQL', async () => {
    const seen = new Set([(await snapshot()).text]);
    const changes = [
      () => database.db.execute(sql`insert into t values (1)`),
      () => database.db.transaction(async (tx) => void (await tx.execute(sql`delete from t`))),
      () => database.withClient((raw) => raw.exec('insert into t values (2)')),
      () => client.query('update t set n = 3'),
    ];
    for (const change of changes) {
      await snapshot();
      await change();
      const after = await snapshot();
      expect(after.statements).toBe(1);
      expect(seen.has(after.text)).toBe(false);
      seen.add(after.text);
    }
  });

  it('asked while a transaction is open, answers after its commit, and is not kept from before it', async () => {
    await snapshot();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (4)`);
      inserted();
      await gate;
    });
    await insertedOnce;
    const during = database.snapshot();
    release();
    await transaction;
    const asked = await during;
    // The statement waited for the transaction: its snapshot already sees the commit.
    const rows = await database.db.execute(sql`select pg_current_snapshot()::text as s`);
    expect(asked).toBe((rows as unknown as { rows: { s: string }[] }).rows[0]!.s);
    const count = await database.db.execute(sql`select count(*)::int as n from t where n = 4`);
    expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(1);
  });
});
