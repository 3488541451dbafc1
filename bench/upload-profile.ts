// Where an upload's time goes, from the server's own request log (bench/browser.bench.ts
// starts the server with a logger writing here): the time before the first chunk (the
// engine's queueing and its IndexedDB copy, the push start, the status call), the chunks
// (first chunk request in to last chunk answer out), the finish, and the server time of one
// chunk request. Also the server's CPU time (process.cpuUsage: the bench process runs the
// server) and Chromium's (its processes are the bench process's descendants), and the CPU
// budget they set: the least wall time their CPU seconds allow on this machine's cores.

interface OpenRequest {
  method: string;
  url: string;
  start: number;
}

export interface LoggedRequest extends OpenRequest {
  end: number;
  status: number;
}

/** Collects Fastify's "incoming request" / "request completed" log lines (pino JSON). */
export class RequestLog {
  readonly requests: LoggedRequest[] = [];
  private readonly open = new Map<string, OpenRequest>();

  /** The stream to give Fastify's logger. */
  readonly stream = {
    write: (line: string): void => {
      let entry: {
        msg?: string;
        reqId?: string;
        time?: number;
        req?: { method?: string; url?: string };
        res?: { statusCode?: number };
      };
      try {
        entry = JSON.parse(line);
      } catch {
        return;
      }
      if (!entry.reqId || typeof entry.time !== 'number') return;
      if (entry.msg === 'incoming request') {
        this.open.set(entry.reqId, {
          method: entry.req?.method ?? '',
          url: entry.req?.url ?? '',
          start: entry.time,
        });
      } else if (entry.msg === 'request completed') {
        const request = this.open.get(entry.reqId);
        this.open.delete(entry.reqId);
        if (request) {
          this.requests.push({ ...request, end: entry.time, status: entry.res?.statusCode ?? 0 });
        }
      }
    },
  };

  /** The requests logged since `since` (epoch ms), and forgets older ones. */
  since(since: number): LoggedRequest[] {
    return this.requests.filter((r) => r.start >= since - 5);
  }
}

/**
 * Chunks the server acknowledged (200) more than once among `requests`: bytes sent again
 * although the server had confirmed them.
 */
export function chunksAcknowledgedAgain(requests: LoggedRequest[]): number {
  const acknowledged = new Map<string, number>();
  for (const r of requests) {
    if (r.status !== 200 || !r.url.startsWith('/v1/project/push/chunk/')) continue;
    acknowledged.set(r.url, (acknowledged.get(r.url) ?? 0) + 1);
  }
  return [...acknowledged.values()].reduce((sum, n) => sum + n - 1, 0);
}

export interface UploadStages {
  beforeChunksMs: number;
  chunksMs: number;
  finishMs: number;
  /** Median server time of one chunk request (body received, stored, recorded, answered). */
  chunkRequestMs: number;
  chunks: number;
}

function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
}

/** The stages of the v1 upload that started at `startedAt` (epoch ms). */
export function uploadStages(log: RequestLog, startedAt: number): UploadStages {
  const requests = log.since(startedAt);
  const chunks = requests.filter((r) => r.url.startsWith('/v1/project/push/chunk/'));
  const finish = requests.filter((r) => r.url.startsWith('/v1/project/push/finish/')).at(-1);
  const firstChunk = Math.min(...chunks.map((r) => r.start));
  const lastChunk = Math.max(...chunks.map((r) => r.end));
  return {
    beforeChunksMs: firstChunk - startedAt,
    chunksMs: lastChunk - firstChunk,
    finishMs: finish ? finish.end - finish.start : NaN,
    chunkRequestMs: median(chunks.map((r) => r.end - r.start)),
    chunks: chunks.length,
  };
}

export function stagesText(stages: UploadStages): string {
  return (
    `before the first chunk ${stages.beforeChunksMs.toFixed(0)} ms, ` +
    `${stages.chunks} chunks ${stages.chunksMs.toFixed(0)} ms ` +
    `(one request ${stages.chunkRequestMs.toFixed(0)} ms at the server), ` +
    `finish ${stages.finishMs.toFixed(0)} ms`
  );
}

/** CPU seconds of one thread of this process (Linux: /proc/self/task/<tid>/stat, 100 ticks a second). */
interface ThreadCpu {
  tid: number;
  name: string;
  userS: number;
  systemS: number;
}

async function threadCpu(pid: number | 'self' = 'self'): Promise<Map<number, ThreadCpu>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const threads = new Map<number, ThreadCpu>();
  const tids = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const tid of tids) {
    try {
      const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), {
        tid: Number(tid),
        name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        userS: Number(fields[11]) / 100,
        systemS: Number(fields[12]) / 100,
      });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

/**
 * CPU seconds (user + system, every thread) of the processes below `root` (not `root`
 * itself), by pid: Chromium, which Playwright starts as a child of the bench process, with
 * its renderer, GPU, network and utility processes (Linux: /proc/<pid>/stat).
 */
async function descendantsCpu(root: number, except?: number): Promise<Map<number, number>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const parentOf = new Map<number, number>();
  const cpuOf = new Map<number, number>();
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((n) => /^\d+$/.test(n));
  for (const pid of pids) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // After the command name: state (field 3), ppid (4), …, utime (14), stime (15).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(pid), Number(fields[1]));
      cpuOf.set(Number(pid), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The process ended meanwhile.
    }
  }
  const below = new Map<number, number>();
  let level = [root];
  while (level.length > 0) {
    const next: number[] = [];
    for (const [pid, parent] of parentOf) {
      if (level.includes(parent) && !below.has(pid) && pid !== except) {
        below.set(pid, cpuOf.get(pid) ?? 0);
        next.push(pid);
      }
    }
    level = next;
  }
  return below;
}

export interface CpuUse {
  /**
   * CPU seconds of the bench's child processes meanwhile (Chromium, all its processes; a
   * process that ended meanwhile is missing).
   */
  browserS: number;
  /** User + system CPU seconds of the whole process (every thread). */
  cpuS: number;
  userS: number;
  systemS: number;
  /**
   * Page faults of the process meanwhile (minor: fresh or reclaimed memory touched; on this
   * machine's VM each costs tens of microseconds, much of it outside the process's CPU time).
   */
  pageFaults: number;
  /** The main thread's share (user + system seconds; NaN where /proc is missing). */
  mainS: number;
  /** The other threads that used at least 0.05 s, busiest first (hashing thread, libuv pool, V8). */
  otherS: number[];
  /**
   * Their names, in the same order: the kernel's `comm` (Node 20 names every thread "node")
   * and `#n`, the thread's rank in start order (0 the main thread; V8's 4 platform threads,
   * its garbage collection helpers, start right after it; libuv's pool of 4 at the first
   * file operation; the hashing workers at the first upload, last).
   */
  otherNames: string[];
}

/** A process's user and system CPU seconds and page faults (Linux: /proc/<pid>/stat). */
async function processCpu(
  pid: number,
): Promise<{ userS: number; systemS: number; pageFaults: number }> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // After the command name: minflt is field 10, majflt 12, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    userS: Number(fields[11]) / 100,
    systemS: Number(fields[12]) / 100,
    pageFaults: Number(fields[7]) + Number(fields[9]),
  };
}

/** This process's CPU use so far (process.cpuUsage and resourceUsage, finer than /proc). */
function ownCpu(): { userS: number; systemS: number; pageFaults: number } {
  const used = process.cpuUsage();
  const faults = process.resourceUsage();
  return {
    userS: used.user / 1e6,
    systemS: used.system / 1e6,
    pageFaults: faults.minorPageFault + faults.majorPageFault,
  };
}

/**
 * Runs `work`, answering its result and the CPU time the server spent meanwhile: this
 * process, or the server's own process `serverPid` (startBenchServerProcess), which then
 * does not count as the browser's either.
 */
export async function withCpu<T>(
  work: () => Promise<T>,
  serverPid?: number,
): Promise<{ result: T } & CpuUse> {
  const server = serverPid ?? process.pid;
  const sample = () => (serverPid ? processCpu(serverPid) : Promise.resolve(ownCpu()));
  const browserBefore = await descendantsCpu(process.pid, serverPid);
  const threadsBefore = await threadCpu(serverPid ?? 'self');
  const before = await sample();
  const result = await work();
  const after = await sample();
  const threadsAfter = await threadCpu(serverPid ?? 'self');
  const browserAfter = await descendantsCpu(process.pid, serverPid);
  let browserS = 0;
  for (const [pid, s] of browserAfter) browserS += s - (browserBefore.get(pid) ?? 0);
  const spent = [...threadsAfter.values()].map((t) => {
    const was = threadsBefore.get(t.tid);
    return {
      tid: t.tid,
      name: t.name,
      s: t.userS + t.systemS - (was ? was.userS + was.systemS : 0),
    };
  });
  const main = spent.find((t) => t.tid === server);
  const rank = new Map([...threadsAfter.keys()].sort((a, b) => a - b).map((tid, i) => [tid, i]));
  const others = spent.filter((t) => t.tid !== server && t.s >= 0.05).sort((a, b) => b.s - a.s);
  return {
    result,
    browserS,
    cpuS: after.userS + after.systemS - before.userS - before.systemS,
    userS: after.userS - before.userS,
    systemS: after.systemS - before.systemS,
    pageFaults: after.pageFaults - before.pageFaults,
    mainS: main?.s ?? NaN,
    otherS: others.map((t) => t.s),
    otherNames: others.map((t) => `${t.name} #${rank.get(t.tid)}`),
  };
}

/** CPU use per GiB of `bytes`, in words (the median round's). */
export function cpuText(use: CpuUse, bytes: number): string {
  const gib = bytes / 1024 ** 3;
  const per = (s: number) => (s / gib).toFixed(2);
  return (
    `${per(use.cpuS)} s/GiB (user ${per(use.userS)}, system ${per(use.systemS)}; ` +
    `${Math.round(use.pageFaults / gib)} page faults per GiB; ` +
    `main thread ${per(use.mainS)}, other threads ` +
    `${use.otherS.map((s, i) => `${per(s)} ${use.otherNames[i] ?? ''}`.trim()).join(', ')})`
  );
}

/**
 * Runs `work` under the V8 CPU profiler of this process (every thread's JavaScript on the
 * main thread; worker threads are not sampled) when `path` is set, and writes the profile
 * there (open it in Chrome's DevTools, or sum it by function).
 */
export async function withCpuProfile<T>(
  path: string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!path) return work();
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(path, JSON.stringify(profile));
    session.disconnect();
  }
}

export interface CpuBudget {
  cores: number;
  /** Chromium alone posting the slices: its wall time, Chromium's and the drop server's CPU s. */
  aloneMs: number;
  aloneBrowserS: number;
  aloneServerS: number;
  /** The upload: its wall time, Chromium's and the server's CPU seconds. */
  uploadMs: number;
  uploadBrowserS: number;
  uploadServerS: number;
}

/**
 * The least time the upload can take on `cores` cores whatever the scheduling: every CPU
 * second Chromium and the server spent on it, spread over every core (ms).
 */
export function budgetFloorMs(budget: CpuBudget): number {
  return ((budget.uploadBrowserS + budget.uploadServerS) / budget.cores) * 1000;
}

/** The best throughput against Chromium alone that the floor allows (aloneMs / floor). */
export function budgetBestRatio(budget: CpuBudget): number {
  return budget.aloneMs / budgetFloorMs(budget);
}

/**
 * The best throughput against Chromium alone when Chromium alone is itself bound by the CPU
 * (its CPU seconds over the cores about its wall time, as on a quiet 2-core machine): the
 * CPU seconds of Chromium alone (with the drop server) over the upload's.
 */
export function budgetCpuRatio(budget: CpuBudget): number {
  return (
    (budget.aloneBrowserS + budget.aloneServerS) / (budget.uploadBrowserS + budget.uploadServerS)
  );
}

export function budgetText(budget: CpuBudget): string {
  const s = (v: number) => v.toFixed(2);
  const floor = budgetFloorMs(budget);
  return (
    `Chromium alone: ${budget.aloneMs.toFixed(0)} ms, CPU Chromium ${s(budget.aloneBrowserS)} s + ` +
    `drop server ${s(budget.aloneServerS)} s; upload: ${budget.uploadMs.toFixed(0)} ms, CPU ` +
    `Chromium ${s(budget.uploadBrowserS)} s + server ${s(budget.uploadServerS)} s = ` +
    `${s(budget.uploadBrowserS + budget.uploadServerS)} s / ${budget.cores} cores ≥ ` +
    `${floor.toFixed(0)} ms: at best ${budgetBestRatio(budget).toFixed(2)}× Chromium alone ` +
    `(reached ${(budget.aloneMs / budget.uploadMs).toFixed(2)}×); Chromium alone used ` +
    `${((budget.aloneBrowserS + budget.aloneServerS) / budget.cores / (budget.aloneMs / 1000)).toFixed(2)} ` +
    `of the cores: if it is bound by the CPU, at best ${budgetCpuRatio(budget).toFixed(2)}× ` +
    `(its CPU seconds over the upload's)`
  );
}
