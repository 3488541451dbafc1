/**
 * Reading the audit log in server tests: the entries an action wrote (everything after the
 * last entry seen), and `one`, which expects an action to succeed and write exactly one entry.
 */
import { gt } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, type AuditEntry } from '../../../server/src/db/schema';
import type { TestApp } from './test-app';

export interface AuditWatch {
  /** Runs `action`; the entries it wrote, oldest first. */
  entriesOf(action: () => Promise<unknown>): Promise<AuditEntry[]>;
  /** Runs `action` (a 2xx expected) and expects exactly one entry like `expected`. */
  one(
    action: () => Promise<{ statusCode: number; body: string }>,
    expected: Partial<AuditEntry>,
  ): Promise<AuditEntry>;
  /** Forgets what was written so far (the next call sees only what comes after). */
  skip(): Promise<void>;
}

export function watchAudit(t: TestApp): AuditWatch {
  let lastId = 0;
  const entriesOf = async (action: () => Promise<unknown>): Promise<AuditEntry[]> => {
    await action();
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(gt(auditLog.id, lastId))
      .orderBy(auditLog.id);
    if (rows.length > 0) lastId = rows.at(-1)!.id;
    return rows;
  };
  return {
    entriesOf,
    async one(action, expected) {
      let status = 0;
      let body = '';
      const rows = await entriesOf(async () => {
        const response = await action();
        status = response.statusCode;
        body = response.body;
      });
      expect(status, body).toBeLessThan(300);
      expect(rows.map((r) => r.action)).toEqual([expected.action]);
      expect(rows[0]).toMatchObject({ ip: '127.0.0.1', ...expected });
      return rows[0]!;
    },
    async skip() {
      await entriesOf(async () => {});
    },
  };
}
