// Request cost of an edit batch (issue 34's bench target, decisions 0139 and draft
// edits-fast-version-statement): the database statements of one batch that makes a version,
// those inside its transactions counted too. 24 before 0139 (17 in the version's
// transaction), 17 after (11); now 11 (5): the version's blobs, row, changesets, history,
// latest files and audit entry in one statement, the webhooks read with the project row, the
// workspace's usage with the version's totals.
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Project } from '../../server/src/db/schema';
import type { EditBatch } from '../../server/src/schemas/edits';
import { changesetWorkIdle } from '../../server/src/services/changesets';
import { pagePatchWorkIdle } from '../../server/src/services/file-store';
import { mapWarmIdle } from '../../server/src/services/map/warm';
import { recordStatements } from './support/statements';
import { commit, createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/qgis');
const FILE = 'survey.gpkg';
let t: TestApp;
let admin: TestClient;
let survey: Project;
let statements: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  survey = await createProject(t, { name: 'edits-cost' });
  await commit(t, survey.id, {
    added: { [FILE]: await readFile(path.join(FIXTURE, 'survey.gpkg')) },
  });
  statements = recordStatements(t.database, { transactions: true });
});

afterAll(async () => {
  await t?.close();
});

const batch = (version: number): EditBatch => ({
  base_version: `v${version}`,
  changes: [
    { file: FILE, layer: 'trees', op: 'update', fid: 1, values: { status: `checked ${version}` } },
    {
      file: FILE,
      layer: 'trees',
      op: 'insert',
      fid: -1,
      values: { name: `young ${version}`, status: 'good', healthy: true, height: 2.5 },
      geometry: { type: 'Point', coordinates: [21.015, 52.231] },
    },
  ],
});

/**
 * Statements of the request itself: not BEGIN and COMMIT (node-postgres sends them as
 * statements), the leases' pings, the read cache's snapshot probe (db/pglite-snapshot.ts: sent
 * when other work ran statements since the last one), nor, after the version's transaction,
 * anything but the answer kept for the Mm-push-id (the version's background work starts
 * then: on PostgreSQL its statements run beside the request's).
 */
const own = (list: string[]) => {
  const counted = list.filter(
    (s) =>
      !/^(TX )?\s*(begin|commit|rollback)\s*$/i.test(s) &&
      !/set "(last_ping_at|pinged_at)"|pg_current_snapshot\(\)/i.test(s),
  );
  const committed = counted.findLastIndex((s) => s.startsWith('TX '));
  return [
    ...counted.slice(0, committed + 1),
    ...counted.slice(committed + 1).filter((s) => /^update "push_requests" set "status"/i.test(s)),
  ];
};

it('makes a version from a batch in at most 11 statements, 5 in its transaction', async () => {
  const costs: string[][] = [];
  for (let version = 1; version <= 2; version++) {
    // Each version's background work (its changeset, the map's copy, its page patch) done
    // before the next.
    await changesetWorkIdle(t.app.ctx);
    await mapWarmIdle(t.app.ctx);
    await pagePatchWorkIdle(t.app.ctx);
    statements.length = 0;
    const answer = await admin.post(`/v2/projects/${survey.id}/edits`, batch(version), {
      headers: { 'mm-push-id': randomUUID() },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    costs.push(own(statements));
  }
  // The first batch may read what later ones find cached; the second is the cost.
  for (const cost of costs.slice(1)) {
    const listed = cost.map((s, i) => `${i}: ${s.replace(/\s+/g, ' ').slice(0, 120)}`).join('\n');
    expect(cost.length, listed).toBeLessThanOrEqual(11);
    // The version's transaction (the lock's own is two statements).
    expect(cost.filter((s) => s.startsWith('TX ')).length, listed).toBeLessThanOrEqual(2 + 5);
  }
});
