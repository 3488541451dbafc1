// Request cost: how many database statements one authenticated project-list request makes
// (issue 9's requests-per-second target; on PGlite each statement costs about a millisecond).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMembers } from '../../server/src/db/schema';
import { createProject } from './support/seed';
import { ADMIN_PASSWORD, createTestApp, type TestApp, type TestClient } from './support/test-app';

const LIST = '/v1/project/paginated?page=1&per_page=25&order_params=updated_desc';
let t: TestApp;
let admin: TestClient;
const statements: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (let n = 0; n < 30; n++) {
    const project = await createProject(t, { name: `cost-${n}`, public: n % 3 === 0 });
    await t.database.db
      .insert(projectMembers)
      .values({ projectId: project.id, userId: 1, role: 'owner' });
  }
  admin = t.client();
  await admin.login('admin', ADMIN_PASSWORD);
  // Every statement the app sends goes through the client's query (or PGlite's exec).
  const client = (t.database.db as unknown as { $client: Record<string, unknown> }).$client;
  for (const method of ['query', 'exec'] as const) {
    const original = client[method] as (
      text: string | { text: string },
      ...rest: unknown[]
    ) => Promise<unknown>;
    client[method] = (text: string | { text: string }, ...rest: unknown[]) => {
      // PGlite gets the SQL text; node-postgres (PostgreSQL runs) a query config object.
      statements.push(typeof text === 'string' ? text : text.text);
      return original.call(client, text, ...rest);
    };
  }
});

afterAll(async () => {
  await t.close();
});

async function statementsOf(run: () => Promise<void>): Promise<string[]> {
  statements.length = 0;
  await run();
  return [...statements];
}

describe('authenticated project list', () => {
  it('costs three statements (session with user, workspace roles, page with count and access lists) and one more to record the session at most once a minute', async () => {
    let body: { projects: { access: { owners: number[] } }[]; count: number } | undefined;
    // The first request after sign-in: the session was recorded at sign-in, no touch.
    const first = await statementsOf(async () => {
      const response = await admin.get(LIST);
      expect(response.statusCode).toBe(200);
      body = response.json();
    });
    expect(body?.count).toBe(30);
    expect(body?.projects).toHaveLength(25);
    expect(body?.projects.every((p) => p.access.owners.includes(1))).toBe(true);
    expect(first).toHaveLength(3);

    // A minute later the session's last-seen time is recorded once, then not again.
    t.clock.advance(61_000);
    const touched = await statementsOf(async () => {
      expect((await admin.get(LIST)).statusCode).toBe(200);
    });
    expect(touched).toHaveLength(4);
    expect(touched.filter((s) => /^update "sessions"/i.test(s))).toHaveLength(1);
    const again = await statementsOf(async () => {
      expect((await admin.get(LIST)).statusCode).toBe(200);
    });
    expect(again).toHaveLength(3);
  });
});
