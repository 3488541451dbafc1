// The upload engine survives a cut network, a reloaded tab and a restarted server: each upload
// finishes with the original bytes, and no chunk the server acknowledged is sent again (the
// resume status call's chunk_writes stay 1, checked just before finish goes through).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  expect,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Page,
  type Route,
} from '@playwright/test';
import { createProject, signInSession } from './support/api';
import { e2eAdmin, freePorts } from './support/env';
import { OwnServer } from './support/own-server';
import { removeRoutes } from './support/routes';
import { unique } from './support/unique';
import { tempDir } from './support/temp-dir';

const CHUNK_SIZE = 10 * 1024 * 1024;
const stamp = unique;

test.use({ serviceWorkers: 'block' });
// Each test makes its own project and files (the restarted server is its own, minutes on a busy
// machine): they spread over the workers rather than queue on one.
test.describe.configure({ mode: 'parallel' });

const workDir = tempDir('resilience');
test.afterEach(({ context }) => removeRoutes(context));

/** A random file of `size` bytes on disk (for the file input). */
function randomFile(name: string, size: number): { path: string; bytes: Buffer } {
  const bytes = randomBytes(size);
  const path = join(mkdtempSync(join(workDir, 'f-')), name);
  writeFileSync(path, bytes);
  return { path, bytes };
}

/** Opens the project's files, picks `file` and starts the upload with 'Update Changes'. */
async function startUpload(page: Page, namespace: string, name: string, file: string) {
  await page.goto(`/projects/${namespace}/${encodeURIComponent(name)}/tree`);
  await expect(page.getByRole('region', { name: 'Upload files or folders' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByTestId('upload-files-input').setInputFiles(file);
  const dataSync = page.getByRole('region', { name: 'Data Sync' });
  await expect(dataSync.getByRole('group', { name: 'Changes' })).toContainText('Added: 1', {
    timeout: 60_000,
  });
  await dataSync.getByRole('button', { name: 'Update Changes' }).click();
}

/**
 * Holds every finish request until the test has read the status call: every chunk the server
 * received was written exactly once, and all `chunks` arrived.
 */
async function checkWritesBeforeFinish(
  page: Page,
  request: APIRequestContext,
  chunks: number,
): Promise<{ finishes: () => number }> {
  let finishes = 0;
  await page.route('**/v1/project/push/finish/*', async (route: Route) => {
    finishes += 1;
    const transaction = new URL(route.request().url()).pathname.split('/').pop()!;
    const status = await request.get(`/v1/project/push/${transaction}`);
    expect(status.status()).toBe(200);
    const body = (await status.json()) as {
      chunks_received: string[];
      chunk_writes: Record<string, number>;
    };
    expect(body.chunks_received).toHaveLength(chunks);
    expect(Object.keys(body.chunk_writes)).toHaveLength(chunks);
    expect(Object.values(body.chunk_writes).every((n) => n === 1)).toBe(true);
    await route.continue();
  });
  return { finishes: () => finishes };
}

async function downloaded(
  request: APIRequestContext,
  namespace: string,
  name: string,
  path: string,
): Promise<Buffer> {
  const response = await request.get(
    `/v1/project/raw/${namespace}/${encodeURIComponent(name)}?file=${encodeURIComponent(path)}`,
  );
  expect(response.status()).toBe(200);
  return response.body();
}

test('a cut network: the upload waits, resumes by itself and sends no acknowledged chunk twice', async ({
  page,
  context,
}) => {
  const name = `Cut network ${stamp()}`;
  const file = randomFile('ortho.tif', 3 * CHUNK_SIZE + 123_456);
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);

  // After two chunks the network goes: the third chunk reaches the server but its answer is
  // lost; requests waiting behind it, later ones and /ping fail until the network returns.
  let offline = false;
  let restored = false;
  let answered = 0;
  const waiting: Route[] = [];
  await context.route('**/v1/project/push/chunk/**', async (route) => {
    if (offline) return route.abort('internetdisconnected');
    if (answered >= 2 && !restored) {
      waiting.push(route);
      if (waiting.length > 1) return;
      await route.fetch();
      offline = true;
      for (const other of waiting.splice(0)) await other.abort('internetdisconnected');
      return;
    }
    answered += 1;
    return route.continue();
  });
  let probesWhileOffline = 0;
  await context.route('**/ping', (route) => {
    if (!offline) return route.fallback();
    probesWhileOffline += 1;
    return route.abort('internetdisconnected');
  });
  const finish = await checkWritesBeforeFinish(page, context.request, 4);

  await startUpload(page, 'waymark', name, file.path);
  await expect.poll(() => offline, { timeout: 60_000 }).toBe(true);
  // While the network is out the engine probes the server instead of sending chunks.
  await expect.poll(() => probesWhileOffline, { timeout: 30_000 }).toBeGreaterThan(1);
  expect(finish.finishes()).toBe(0);
  restored = true;
  offline = false;

  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 90_000,
  });
  expect(finish.finishes()).toBe(1);
  expect((await downloaded(context.request, 'waymark', name, 'ortho.tif')).equals(file.bytes)).toBe(
    true,
  );
});

/** How many blobs the upload queue keeps in IndexedDB (so a reload can resume). */
function storedBlobs(page: Page): Promise<number> {
  // A string: this file is compiled without the DOM types.
  return page.evaluate<number>(`new Promise((resolve, reject) => {
    const open = indexedDB.open('waymark');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('uploadBlobs')) {
        db.close();
        resolve(0);
        return;
      }
      const count = db.transaction('uploadBlobs').objectStore('uploadBlobs').count();
      count.onsuccess = () => {
        db.close();
        resolve(count.result);
      };
      count.onerror = () => reject(count.error);
    };
  })`);
}

/**
 * Throttles chunk requests by route handling (no sleeps): the first `pass` requests go to the
 * server, later ones wait in `held` until the test lets them go (or drops them).
 */
class ChunkGate {
  readonly held: Route[] = [];
  passed = 0;
  open = false;

  constructor(
    context: BrowserContext,
    private readonly pass: number,
  ) {
    void context.route('**/v1/project/push/chunk/**', (route) => {
      if (this.open || this.passed < this.pass) {
        this.passed += 1;
        return route.continue().catch(() => undefined);
      }
      this.held.push(route);
      return undefined;
    });
  }

  /** Lets every held and later request through. */
  async release(): Promise<void> {
    this.open = true;
    for (const route of this.held.splice(0)) await route.continue().catch(() => undefined);
  }

  /** Fails the held requests as a lost connection would; later ones go through. */
  async drop(): Promise<void> {
    this.open = true;
    for (const route of this.held.splice(0)) {
      await route.abort('connectionreset').catch(() => undefined);
    }
  }
}

/** Counts chunk requests the server answered. */
function countAnsweredChunks(context: BrowserContext): () => number {
  let answered = 0;
  context.on('requestfinished', (request) => {
    if (request.url().includes('/v1/project/push/chunk/')) answered += 1;
  });
  return () => answered;
}

test('a reloaded tab: the upload resumes from IndexedDB and finishes', async ({
  page,
  context,
}) => {
  const name = `Reload ${stamp()}`;
  const file = randomFile('survey.tif', 4 * CHUNK_SIZE + 654_321);
  await signInSession(page, e2eAdmin.username, e2eAdmin.password);
  await createProject(page, 'waymark', name);
  const answered = countAnsweredChunks(context);
  const gate = new ChunkGate(context, 2);
  const finish = await checkWritesBeforeFinish(page, context.request, 5);

  await startUpload(page, 'waymark', name, file.path);
  // Reload with chunks in flight: two answered, the others held, the blobs kept.
  await expect.poll(answered, { timeout: 60_000 }).toBe(2);
  await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBeGreaterThan(0);
  await expect.poll(() => storedBlobs(page), { timeout: 60_000 }).toBe(1);
  expect(finish.finishes()).toBe(0);
  gate.open = true;
  await page.reload();
  await gate.drop();

  await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
    timeout: 120_000,
  });
  expect(finish.finishes()).toBe(1);
  expect(
    (await downloaded(context.request, 'waymark', name, 'survey.tif')).equals(file.bytes),
  ).toBe(true);
  await expect.poll(() => storedBlobs(page)).toBe(0);
});

test('a restarted server: the upload waits for it and resumes with the missing chunks', async ({
  browser,
}) => {
  const [port] = (await freePorts()) as [number];
  const server = new OwnServer(port, join(workDir, 'server-data'));
  await server.start();
  const context: BrowserContext = await browser.newContext({
    baseURL: server.url,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    const name = `Restart ${stamp()}`;
    const file = randomFile('dem.tif', 3 * CHUNK_SIZE + 777);
    await signInSession(page, e2eAdmin.username, e2eAdmin.password);
    await createProject(page, 'waymark', name);

    const answered = countAnsweredChunks(context);
    const gate = new ChunkGate(context, 1);
    const finish = await checkWritesBeforeFinish(page, context.request, 4);

    await startUpload(page, 'waymark', name, file.path);
    await expect.poll(answered, { timeout: 60_000 }).toBe(1);
    await expect.poll(() => gate.held.length, { timeout: 60_000 }).toBeGreaterThan(0);
    // The server crashes; the held chunks then meet a closed port.
    await server.stop('SIGKILL');
    await gate.release();
    expect(finish.finishes()).toBe(0);
    await server.start();

    await expect(page.getByText(`Upload finished: waymark/${name}`)).toBeVisible({
      timeout: 120_000,
    });
    expect(finish.finishes()).toBe(1);
    expect((await downloaded(context.request, 'waymark', name, 'dem.tif')).equals(file.bytes)).toBe(
      true,
    );
  } finally {
    await removeRoutes(context);
    await context.close();
    await server.stop();
  }
});
