// Where an upload's time goes, from the server's own request log (bench/browser.bench.ts
// starts the server with a logger writing here): the time before the first chunk (the
// engine's queueing and its IndexedDB copy, the push start, the status call), the chunks
// (first chunk request in to last chunk answer out), the finish, and the server time of one
// chunk request. Also the server's CPU time (process.cpuUsage: the bench process runs the
// server; Chromium is a process of its own).

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
  userS: number;
  systemS: number;
}

async function threadCpu(): Promise<Map<number, ThreadCpu>> {
  const { readdir, readFile } = await import('node:fs/promises');
  const threads = new Map<number, ThreadCpu>();
  const tids = await readdir('/proc/self/task').catch(() => [] as string[]);
  for (const tid of tids) {
    try {
      const stat = await readFile(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      threads.set(Number(tid), {
        tid: Number(tid),
        userS: Number(fields[11]) / 100,
        systemS: Number(fields[12]) / 100,
      });
    } catch {
      // The thread ended meanwhile.
    }
  }
  return threads;
}

export interface CpuUse {
  /** User + system CPU seconds of the whole process (every thread). */
  cpuS: number;
  userS: number;
  systemS: number;
  /** The main thread's share (user + system seconds; NaN where /proc is missing). */
  mainS: number;
  /** The other threads that used at least 0.05 s, busiest first (hashing thread, libuv pool, V8). */
  otherS: number[];
}

/** Runs `work`, answering its result and the CPU time this process spent meanwhile. */
export async function withCpu<T>(work: () => Promise<T>): Promise<{ result: T } & CpuUse> {
  const threadsBefore = await threadCpu();
  const before = process.cpuUsage();
  const result = await work();
  const used = process.cpuUsage(before);
  const threadsAfter = await threadCpu();
  const spent = [...threadsAfter.values()].map((t) => {
    const was = threadsBefore.get(t.tid);
    return {
      tid: t.tid,
      s: t.userS + t.systemS - (was ? was.userS + was.systemS : 0),
    };
  });
  const main = spent.find((t) => t.tid === process.pid);
  return {
    result,
    cpuS: (used.user + used.system) / 1e6,
    userS: used.user / 1e6,
    systemS: used.system / 1e6,
    mainS: main?.s ?? NaN,
    otherS: spent
      .filter((t) => t.tid !== process.pid && t.s >= 0.05)
      .map((t) => t.s)
      .sort((a, b) => b - a),
  };
}

/** CPU use per GiB of `bytes`, in words (the median round's). */
export function cpuText(use: CpuUse, bytes: number): string {
  const gib = bytes / 1024 ** 3;
  const per = (s: number) => (s / gib).toFixed(2);
  return (
    `${per(use.cpuS)} s/GiB (user ${per(use.userS)}, system ${per(use.systemS)}; ` +
    `main thread ${per(use.mainS)}, other threads ${use.otherS.map(per).join(' ')})`
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
