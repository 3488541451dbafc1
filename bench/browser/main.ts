// The page of the browser benchmarks (bench/browser.bench.ts): it runs the product's own
// code (the hashing worker bridge, the upload engine) on a file chosen through the input, and
// reports how long it took (and, for hashing, how many main-thread tasks ran over 50 ms).
import { api } from '../../src/api';
import {
  enqueueUpload,
  onUploadSettled,
  startUploadEngine,
} from '../../src/features/uploads/page/engine';
import { createPushPlan } from '../../src/features/uploads/model/plan';
import type { UploadOutcome } from '../../src/features/uploads/model/types';
import { createHashClient } from '../../src/lib/hashWorker';
import type { BenchWindow, HashRun, UploadRun, UploadTarget } from './api';

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

/** Signs in, creates the project and uploads the chosen file with the upload engine. */
async function uploadChosenFile(target: UploadTarget): Promise<UploadRun> {
  const file = chosenFile();
  await api.get('/app/init');
  await api.post('/app/auth/login', { login: target.username, password: target.password });
  await api.post(`/v1/project/${target.namespace}`, { name: target.project, public: false });
  const project = await api.get<{ id: string; version: string }>(
    `/v1/project/${target.namespace}/${target.project}`,
  );
  startUploadEngine();
  const settled = new Promise<UploadOutcome>((resolve) => {
    const stop = onUploadSettled((outcome) => {
      stop();
      resolve(outcome);
    });
  });
  const started = performance.now();
  const plan = createPushPlan(
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
  await enqueueUpload(plan, new Map([[file.name, file]]));
  const outcome = await settled;
  const ms = performance.now() - started;
  if (outcome.kind !== 'finished') {
    throw new Error(`Upload ended ${outcome.kind}: ${'error' in outcome ? outcome.error : ''}`);
  }
  return { ms };
}

(window as unknown as BenchWindow).waymarkBench = { hashChosenFile, uploadChosenFile };
