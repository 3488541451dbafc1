// The page of the browser benchmarks (bench/browser.bench.ts): it runs the product's own
// code (the hashing worker bridge, the upload engine) on a file chosen through the input, and
// reports how long it took (and, for hashing, how many main-thread tasks ran over 50 ms).
import { api } from '../../src/api';
import {
  enqueueUpload,
  onUploadSettled,
  startUploadEngine,
} from '../../src/features/uploads/page/engine';
import { chunkRange } from '../../src/features/uploads/model/chunks';
import { createPushPlan } from '../../src/features/uploads/model/plan';
import type { UploadOutcome } from '../../src/features/uploads/model/types';
import { createHashClient } from '../../src/lib/hashWorker';
import type {
  AllAtOnceRun,
  BenchWindow,
  HashRun,
  NewProject,
  ReadAnswer,
  UploadRun,
  UploadTarget,
} from './api';

function chosenFile(): File {
  const file = document.querySelector<HTMLInputElement>('input[type=file]')?.files?.[0];
  if (!file) throw new Error('No file chosen');
  return file;
}

async function hashChosenFile(): Promise<HashRun> {
  const file = chosenFile();
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const client = createHashClient();
  const started = performance.now();
  const sha1 = await client.sha1(file);
  const ms = performance.now() - started;
  // Long tasks are reported asynchronously: let the observer deliver what ran meanwhile.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  observer.disconnect();
  client.dispose();
  return { sha1, ms, longTasks: tasks.length, longestTaskMs: Math.max(0, ...tasks) };
}

/** Signs in and creates the target's project; answers its id and version. */
async function newProject(target: UploadTarget): Promise<NewProject> {
  await api.get('/app/init');
  await api.post('/app/auth/login', { login: target.username, password: target.password });
  await api.post(`/v1/project/${target.namespace}`, { name: target.project, public: false });
  return api.get<{ id: string; version: string }>(
    `/v1/project/${target.namespace}/${target.project}`,
  );
}

/** The chosen file as the one added file of a push plan to the target's new project. */
function planOf(file: File, target: UploadTarget, project: NewProject) {
  return createPushPlan(
    { id: project.id, namespace: target.namespace, name: target.project, version: project.version },
    {
      added: [
        {
          path: file.name,
          size: file.size,
          checksum: target.sha1,
          mtime: new Date(file.lastModified).toISOString(),
        },
      ],
      updated: [],
      removed: [],
    },
    () => crypto.randomUUID(),
  );
}

/** Signs in, creates the project and uploads the chosen file with the upload engine. */
async function uploadChosenFile(target: UploadTarget, project: NewProject): Promise<UploadRun> {
  const file = chosenFile();
  startUploadEngine();
  const settled = new Promise<UploadOutcome>((resolve) => {
    const stop = onUploadSettled((outcome) => {
      stop();
      resolve(outcome);
    });
  });
  const startedAt = Date.now();
  const started = performance.now();
  const plan = planOf(file, target, project);
  await enqueueUpload(plan, new Map([[file.name, file]]));
  const outcome = await settled;
  const ms = performance.now() - started;
  if (outcome.kind !== 'finished') {
    throw new Error(`Upload ended ${outcome.kind}: ${'error' in outcome ? outcome.error : ''}`);
  }
  return { ms, startedAt };
}

/** A raw v1 request of the signed-in session; throws unless it answers 200. */
async function push(
  path: string,
  body: BodyInit | null,
  json = false,
  signal?: AbortSignal,
): Promise<Response> {
  const headers: Record<string, string> = { 'X-Client': 'vue' };
  const token = api.getCsrfToken();
  if (token) headers['X-CSRF-Token'] = token;
  if (json) headers['Content-Type'] = 'application/json';
  const answer = await fetch(path, { method: 'POST', headers, body, signal });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
  return answer;
}

async function postChunksOfChosenFile(
  target: UploadTarget,
  project: NewProject,
  inFlight: number,
): Promise<UploadRun> {
  const file = chosenFile();
  const plan = planOf(file, target, project);
  const chunks = plan.body.changes.added[0]?.chunks ?? [];
  const startedAt = Date.now();
  const started = performance.now();
  const path = `/v1/project/push/${target.namespace}/${target.project}`;
  const { transaction } = (await (await push(path, JSON.stringify(plan.body), true)).json()) as {
    transaction: string;
  };
  let next = 0;
  const send = async () => {
    for (let i = next++; i < chunks.length; i = next++) {
      const { start, end } = chunkRange(file.size, i);
      await (
        await push(`/v1/project/push/chunk/${transaction}/${chunks[i]}`, file.slice(start, end))
      ).text();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, send));
  await (await push(`/v1/project/push/finish/${transaction}`, null)).text();
  return { ms: performance.now() - started, startedAt };
}

async function readChosenFile(strategy: string): Promise<ReadAnswer> {
  const file = chosenFile();
  const worker = new Worker(new URL('./read.worker.ts', import.meta.url), { type: 'module' });
  try {
    return await new Promise<ReadAnswer>((resolve, reject) => {
      worker.onmessage = (event: MessageEvent<ReadAnswer>) => resolve(event.data);
      worker.onerror = (event) => reject(new Error(event.message));
      worker.postMessage({ strategy, file });
    });
  } finally {
    worker.terminate();
  }
}

/**
 * The reference web app's way: every chunk posted at once (the browser queues what its
 * connections cannot take), the whole upload given up at the first failure.
 */
async function postEveryChunkAtOnce(
  target: UploadTarget,
  project: NewProject,
): Promise<AllAtOnceRun> {
  const file = chosenFile();
  const plan = planOf(file, target, project);
  const chunks = plan.body.changes.added[0]?.chunks ?? [];
  const started = performance.now();
  const path = `/v1/project/push/${target.namespace}/${target.project}`;
  const { transaction } = (await (await push(path, JSON.stringify(plan.body), true)).json()) as {
    transaction: string;
  };
  const abort = new AbortController();
  let acknowledged = 0;
  try {
    await Promise.all(
      chunks.map(async (id, i) => {
        const { start, end } = chunkRange(file.size, i);
        const url = `/v1/project/push/chunk/${transaction}/${id}`;
        await (await push(url, file.slice(start, end), false, abort.signal)).text();
        acknowledged += 1;
      }),
    );
    await (await push(`/v1/project/push/finish/${transaction}`, null)).text();
  } catch {
    abort.abort();
    return { ms: performance.now() - started, finished: false, acknowledged, transaction };
  }
  return { ms: performance.now() - started, finished: true, acknowledged, transaction };
}

/** Waits until the server answers again, then cancels `transaction` (the web app's Cancel). */
async function cancelWhenReachable(transaction: string): Promise<void> {
  for (;;) {
    const answer = await fetch('/ping').catch(() => null);
    if (answer?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await push(`/v1/project/push/cancel/${transaction}`, null);
}

(window as unknown as BenchWindow).waymarkBench = {
  postEveryChunkAtOnce,
  cancelWhenReachable,
  newProject,
  readChosenFile,
  hashChosenFile,
  uploadChosenFile,
  postChunksOfChosenFile,
};
