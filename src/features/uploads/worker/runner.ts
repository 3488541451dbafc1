/**
 * Runs one upload to its end (issue 5, client section): start the push (or reuse the stored
 * transaction), ask the server what it holds, send every chunk that is neither acknowledged in
 * IndexedDB nor held by the server (as many at once as the link warrants, inFlight.ts: 1–2 on a
 * slow link, up to MAX_IN_FLIGHT on a fast one; each request body is the file's Blob slice,
 * which the browser streams without reading it into this worker), then finish. The server checks every file's size and SHA-1 against the plan at finish: a file
 * whose bytes differ from what was analysed fails the upload (its transaction is cancelled),
 * so wrong bytes never become a version. Failures are sorted: a lost connection waits for the
 * network, 5xx/408/429 back off (1 s, 2 s, 4 s … 30 s), a vanished transaction is resolved by
 * looking at the project, and anything else fails the upload with the server's reason. Every
 * pass starts from the status call, so whatever happened before (reload, crash, server
 * restart) only missing chunks go out, and of a chunk cut off mid-way only what the server
 * did not receive (its `chunk_prefixes`).
 */
import type { FileOutcome, UploadChunkAck, UploadRecord, WaymarkDatabase } from '@/db/db';
import type { ProjectDetail } from '@contract/projects';
import { CHUNK_OFFSET_HEADER, versionNumber } from '@contract/protocol';
import type { UploadStatusAnswer } from '@contract/push';
import { uploadedFiles, type PushFile } from '../model/plan';
import { baseFilesOf, composeOutcomes, rebaseOfflinePlan } from '../model/offlineRebase';
import { backoffDelay } from './backoff';
import { chunkRange } from '../model/chunks';
import {
  RebaseNeeded,
  ResyncNeeded,
  RetryableFailure,
  TOO_MANY_RESYNCS,
  TransactionGone,
  UNEXPECTED_MESSAGE,
  UploadFailure,
  fileChangedMessage,
  fileMissingMessage,
  projectChangedMessage,
} from './errors';
import { detailOf, isApiError } from '@/api/errors';
import { answerError, isFilesMismatch, isGone, isOk, isRefusal } from './answers';
import { projectMatchesPlan } from './projectState';
import {
  NetworkError,
  PUSH_ID_HEADER,
  pushPaths,
  type HttpAnswer,
  type PushHttp,
} from './pushHttp';
import type { ProgressTracker } from './progress';
import { InFlightControl, MAX_IN_FLIGHT } from './inFlight';
import { TaskPool } from './taskPool';

const MAX_RESYNCS = 5;
/** Rebases of an upload queued offline after its first, should the project keep moving on. */
export const MAX_REBASES = 3;

export interface RunnerDeps {
  db: WaymarkDatabase;
  http: PushHttp;
  /** The bytes of `path` of upload `uploadId`, or undefined when they are gone. */
  blob(uploadId: string, path: string): Promise<Blob | undefined>;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Resolves when the network seems back; `attempt` counts consecutive network failures. */
  waitForNetwork(attempt: number, signal: AbortSignal): Promise<void>;
  random(): number;
  now(): number;
  /** Makes UUIDs (upload ids, a new push id after a refused finish). */
  randomId(): string;
  /** Hex SHA-1 of a Blob: checks a staged copy before files the server refused go again. */
  sha1(blob: Blob, signal: AbortSignal): Promise<string>;
  /** The most chunk requests in flight (default MAX_IN_FLIGHT; fewer on a slow link). */
  concurrency?: number;
}

export type RunResult =
  | {
      kind: 'finished' | 'updated';
      project: ProjectDetail;
      /** For an upload queued offline: what happened to each file. */
      files?: FileOutcome[];
    }
  | { kind: 'failed'; error: string };

class UploadRun {
  /** Requests in flight, adapted to the link; kept across passes (the link stays). */
  private readonly inFlight: InFlightControl;
  /** Set when a chunk was acknowledged during the current pass (resets the backoff). */
  progressMade = false;
  private resyncs = 0;
  private rebases = 0;
  /** Set once files the server refused at finish were sent again (once per run). */
  private resentRefused = false;
  /**
   * Chunks the server holds a prefix of (the status call's `chunk_prefixes`, a connection
   * that broke off mid-chunk): only the rest is sent, once.
   */
  private prefixes = new Map<string, number>();

  constructor(
    private readonly deps: RunnerDeps,
    private readonly id: string,
    private readonly tracker: ProgressTracker,
    private readonly signal: AbortSignal,
  ) {
    this.inFlight = new InFlightControl(Math.max(1, deps.concurrency ?? MAX_IN_FLIGHT));
  }

  async run(): Promise<RunResult> {
    let attempt = 0;
    let networkAttempt = 0;
    for (;;) {
      this.signal.throwIfAborted();
      this.progressMade = false;
      try {
        return await this.pass();
      } catch (error) {
        this.signal.throwIfAborted();
        if (this.progressMade) {
          attempt = 0;
          networkAttempt = 0;
        }
        if (error instanceof NetworkError) {
          this.tracker.setPhase('waiting-network');
          await this.deps.waitForNetwork(networkAttempt, this.signal);
          networkAttempt += 1;
          continue;
        }
        networkAttempt = 0;
        if (error instanceof RetryableFailure) {
          await this.countdown(backoffDelay(attempt, this.deps.random));
          attempt += 1;
          continue;
        }
        if (error instanceof RebaseNeeded) {
          this.rebases += 1;
          if (this.rebases > MAX_REBASES) {
            return this.fail(new UploadFailure(projectChangedMessage(error.latest.version)));
          }
          const nothingLeft = await this.rebaseAgain(error.latest as ProjectDetail);
          if (nothingLeft) return nothingLeft;
          continue;
        }
        if (error instanceof TransactionGone || error instanceof ResyncNeeded) {
          this.resyncs += 1;
          if (this.resyncs > MAX_RESYNCS) return this.fail(new UploadFailure(TOO_MANY_RESYNCS));
          continue;
        }
        return this.fail(error);
      }
    }
  }

  private async fail(error: unknown): Promise<RunResult> {
    const failure =
      error instanceof UploadFailure
        ? error
        : isApiError(error) && error.isMaintenance
          ? // Refused before any request: the transaction stays for a retry after maintenance.
            new UploadFailure(error.message, { keepTransaction: true })
          : new UploadFailure(
              error instanceof Error && error.message ? error.message : UNEXPECTED_MESSAGE,
            );
    if (!failure.keepTransaction) await this.dropTransaction();
    return { kind: 'failed', error: failure.message };
  }

  /** Cancels the server transaction (best effort) so a retry starts a fresh push. */
  private async dropTransaction(): Promise<void> {
    const record = await this.record();
    if (!record.transaction) return;
    const transaction = record.transaction;
    await this.deps.http
      .call({ method: 'POST', path: pushPaths.cancel(transaction), signal: this.signal })
      .catch(() => undefined);
    await this.resetTransaction(null);
  }

  /** Waits until `at` (null: no time) or until `settled` settles, whichever comes first. */
  private async waitUntil(at: number | null, settled: Promise<unknown>): Promise<void> {
    if (at === null) {
      await settled;
      return;
    }
    const timer = new AbortController();
    const stop = () => timer.abort();
    this.signal.addEventListener('abort', stop, { once: true });
    try {
      await Promise.race([
        settled,
        this.deps.sleep(Math.max(0, at - this.deps.now()), timer.signal).catch(() => undefined),
      ]);
    } finally {
      timer.abort();
      this.signal.removeEventListener('abort', stop);
    }
  }

  private async countdown(delay: number): Promise<void> {
    let remaining = delay;
    while (remaining > 0) {
      this.tracker.setPhase('retrying', { retryInSeconds: Math.ceil(remaining / 1000) });
      const step = remaining % 1000 || 1000;
      await this.deps.sleep(step, this.signal);
      remaining -= step;
    }
  }

  private async record(): Promise<UploadRecord> {
    const record = await this.deps.db.uploads.get(this.id);
    if (!record) throw new DOMException('The upload was removed.', 'AbortError');
    return record;
  }

  /**
   * Forgets the acknowledged chunks and records `transaction` (null: none). Dropping a
   * transaction renews the push id too: the server ties an `Mm-push-id` to the transaction it
   * first finished, so an id sent before must not reach the finish of the next one.
   */
  private async resetTransaction(transaction: string | null): Promise<void> {
    const { db } = this.deps;
    await db.transaction('rw', db.uploads, db.uploadChunks, async () => {
      const record = await this.record();
      await db.uploads.update(
        this.id,
        transaction === null
          ? { transaction, plan: { ...record.plan, pushId: this.deps.randomId() } }
          : { transaction },
      );
      await db.uploadChunks.where('uploadId').equals(this.id).delete();
    });
  }

  /** The project as the server holds it now. */
  private async latestProject(record: UploadRecord): Promise<ProjectDetail> {
    const answer = await this.deps.http.call({
      method: 'GET',
      path: pushPaths.project(record.plan.namespace, record.plan.name),
      signal: this.signal,
    });
    if (!isOk(answer)) throw answerError(answer);
    return answer.data as ProjectDetail;
  }

  /**
   * An upload queued offline, before its first push: the latest version is read and the plan
   * rebased onto it (model/offlineRebase.ts); the new plan, what happens to each file and the
   * conflicted copies' bytes (under their new paths) are stored at once. Resolves with the
   * project when nothing is left to send.
   */
  private async rebase(
    record: UploadRecord,
    latest?: ProjectDetail,
  ): Promise<ProjectDetail | null> {
    const offline = record.offline as NonNullable<UploadRecord['offline']>;
    latest ??= await this.latestProject(record);
    const rebased = rebaseOfflinePlan(record.plan, offline, latest);
    const { plan, moved } = rebased;
    // A second rebase: what happened to each file of the original plan.
    const outcome = offline.rebased
      ? composeOutcomes(offline.rebased, rebased.outcome)
      : rebased.outcome;
    const { db } = this.deps;
    await db.transaction('rw', db.uploads, db.uploadBlobs, async () => {
      for (const [from, to] of moved) {
        const row = await db.uploadBlobs.get([this.id, from]);
        if (!row) continue;
        await db.uploadBlobs.delete([this.id, from]);
        await db.uploadBlobs.put({ ...row, path: to });
      }
      await db.uploads.update(this.id, {
        plan,
        // The base of a further rebase: the latest version's files the plan touches.
        offline: { ...offline, baseFiles: baseFilesOf(plan, latest), rebased: outcome },
        totalBytes: uploadedFiles(plan).reduce((sum, f) => sum + f.size, 0),
      });
    });
    const left = uploadedFiles(plan).length + plan.body.changes.removed.length;
    return left === 0 ? latest : null;
  }

  /**
   * The project moved on after the upload queued offline was rebased (and before it landed):
   * its transaction is dropped and the plan rebased onto `latest` (what already went stays
   * with the server's version, what changed there again gets a conflicted copy).
   */
  private async rebaseAgain(latest: ProjectDetail): Promise<RunResult | null> {
    await this.dropTransaction();
    const record = await this.record();
    const nothingLeft = await this.rebase(record, latest);
    if (!nothingLeft) return null;
    return { kind: 'updated', project: nothingLeft, files: (await this.record()).offline?.rebased };
  }

  /**
   * For an upload queued offline, a refused start or finish is checked against the project:
   * when it moved past the plan's version, the plan is rebased again (RebaseNeeded).
   */
  private async refusedOffline(record: UploadRecord, refusal: HttpAnswer): Promise<never> {
    if (record.offline && isRefusal(refusal)) {
      const latest = await this.latestProject(record);
      if (versionNumber(latest.version) !== versionNumber(record.plan.body.version)) {
        throw new RebaseNeeded(latest);
      }
    }
    throw answerError(refusal);
  }

  private async pass(): Promise<RunResult> {
    const { http } = this.deps;
    let record = await this.record();
    if (record.offline && !record.offline.rebased && !record.transaction) {
      const nothingLeft = await this.rebase(record);
      record = await this.record();
      if (nothingLeft)
        return { kind: 'updated', project: nothingLeft, files: record.offline?.rebased };
    }
    const files = record.offline?.rebased;
    if (!record.transaction) {
      this.tracker.setPhase('hashing');
      const answer = await http.call({
        method: 'POST',
        path: pushPaths.start(record.plan.namespace, record.plan.name),
        body: record.plan.body,
        signal: this.signal,
      });
      if (!isOk(answer)) return this.refusedOffline(record, answer);
      const data = answer.data as { transaction?: unknown } | undefined;
      if (typeof data?.transaction !== 'string') {
        return { kind: 'updated', project: answer.data as ProjectDetail, files };
      }
      await this.resetTransaction(data.transaction);
      record = await this.record();
    }
    const transaction = record.transaction as string;

    const status = await http.call({
      method: 'GET',
      path: pushPaths.status(transaction),
      signal: this.signal,
    });
    if (isGone(status)) return this.resolveGone(record);
    if (!isOk(status)) throw answerError(status);
    const held = status.data as UploadStatusAnswer;
    const received = new Set(held.chunks_received);
    this.prefixes = new Map(Object.entries(held.chunk_prefixes).filter(([, n]) => n > 0));

    // What is done: acknowledged here (this transaction) or held by the server.
    const acks = await this.deps.db.uploadChunks.where('uploadId').equals(this.id).toArray();
    const done = new Set(acks.filter((a) => a.transaction === transaction).map((a) => a.chunkId));
    const uploaded = uploadedFiles(record.plan);
    const fresh: UploadChunkAck[] = [];
    let loaded = 0;
    let chunksDone = 0;
    for (const file of uploaded) {
      const ids = file.chunks ?? [];
      ids.forEach((chunkId, index) => {
        if (received.has(chunkId) && !done.has(chunkId)) {
          done.add(chunkId);
          const { start, end } = chunkRange(file.size, index);
          fresh.push({
            uploadId: this.id,
            chunkId,
            transaction,
            size: end - start,
            at: this.deps.now(),
          });
        }
        if (done.has(chunkId)) {
          const { start, end } = chunkRange(file.size, index);
          loaded += end - start;
          chunksDone += 1;
        }
      });
    }
    if (fresh.length > 0) await this.deps.db.uploadChunks.bulkPut(fresh);
    this.tracker.setDone(loaded, chunksDone);

    const pool = new TaskPool(
      {
        nextStart: (open) => this.inFlight.nextStart(open, this.deps.now()),
        waitUntil: (at, settled) => this.waitUntil(at, settled),
      },
      this.deps.now,
    );
    try {
      for (const file of uploaded) {
        const ids = file.chunks ?? [];
        if (ids.every((c) => done.has(c))) continue;
        await this.sendFile(file, ids, done, transaction, pool);
      }
      await pool.settle();
      pool.throwIfFailed();
    } finally {
      await pool.settle();
    }

    this.tracker.setPhase('finishing');
    const finish = await http.call({
      method: 'POST',
      path: pushPaths.finish(transaction),
      // The plan's push id: a finish repeated because its answer was lost (no answer, a 5xx,
      // busy) carries the same id, so the server answers it with the first outcome.
      headers: { [PUSH_ID_HEADER]: record.plan.pushId },
      signal: this.signal,
    });
    if (isOk(finish)) return { kind: 'finished', project: finish.data as ProjectDetail, files };
    if (isGone(finish)) return this.resolveGone(await this.record());
    if (isRefusal(finish)) {
      await this.newPushId(record);
      if (record.offline && finish.status !== 422) await this.refusedOffline(record, finish);
    }
    const missing = (finish.data as { missing_chunks?: unknown } | undefined)?.missing_chunks;
    if (finish.status === 422 && Array.isArray(missing) && missing.length > 0) {
      await this.deps.db.uploadChunks.bulkDelete(
        missing.map((chunkId) => [this.id, String(chunkId)] as [string, string]),
      );
      throw new ResyncNeeded('The server is missing chunks');
    }
    const mismatched = (finish.data as { files?: unknown } | undefined)?.files;
    if (isFilesMismatch(finish) && Array.isArray(mismatched) && mismatched.length > 0) {
      // The server forgot those files' chunks and kept the transaction (record 0087). When the
      // staged copies still hash to the plan's checksums the bytes were damaged on the way:
      // they go once more. Otherwise the file changed since it was analysed: the server
      // stored nothing, and the transaction is cancelled as the upload fails.
      const paths = mismatched.map(String);
      if (!this.resentRefused && (await this.stagedCopiesMatch(record, paths))) {
        this.resentRefused = true;
        await this.forgetAcks(record, paths);
        throw new ResyncNeeded('The server refused files whose copies are intact');
      }
      throw new UploadFailure(fileChangedMessage(paths[0]!));
    }
    throw answerError(finish);
  }

  /** Whether the staged copy of each of `paths` has the size and SHA-1 the plan declares. */
  private async stagedCopiesMatch(record: UploadRecord, paths: string[]): Promise<boolean> {
    const planned = new Map(uploadedFiles(record.plan).map((f) => [f.path, f]));
    for (const path of paths) {
      const file = planned.get(path);
      const blob = file && (await this.deps.blob(this.id, path));
      if (!file || !blob || blob.size !== file.size) return false;
      const checksum = await this.deps.sha1(blob, this.signal);
      if (checksum.toLowerCase() !== file.checksum.toLowerCase()) return false;
    }
    return true;
  }

  /** Forgets the acknowledgements of the chunks of `paths` (the server forgot them too). */
  private async forgetAcks(record: UploadRecord, paths: string[]): Promise<void> {
    const chunks = uploadedFiles(record.plan)
      .filter((f) => paths.includes(f.path))
      .flatMap((f) => f.chunks ?? []);
    await this.deps.db.uploadChunks.bulkDelete(
      chunks.map((chunkId) => [this.id, chunkId] as [string, string]),
    );
  }

  /**
   * The server refused the finish, and may keep that answer for the push id: whatever comes
   * next (chunks sent again, a retry by the user) finishes with a new id.
   */
  private async newPushId(record: UploadRecord): Promise<void> {
    await this.deps.db.uploads.update(this.id, {
      plan: { ...record.plan, pushId: this.deps.randomId() },
    });
  }

  /** Sends the missing chunks of one file (each request body is the file's Blob slice). */
  private async sendFile(
    file: PushFile,
    ids: string[],
    done: Set<string>,
    transaction: string,
    pool: TaskPool,
  ): Promise<void> {
    const blob = await this.deps.blob(this.id, file.path);
    if (!blob) throw new UploadFailure(fileMissingMessage(file.path));
    if (blob.size !== file.size) throw new UploadFailure(fileChangedMessage(file.path));
    for (const [index, chunkId] of ids.entries()) {
      if (done.has(chunkId)) continue;
      this.signal.throwIfAborted();
      pool.throwIfFailed();
      const { start, end } = chunkRange(file.size, index);
      const prefix = this.takePrefix(chunkId, end - start);
      // The browser streams the slice from the file (or IndexedDB) itself: the bytes never
      // pass through this worker.
      await pool.run(end - start - prefix, () =>
        this.sendChunk(chunkId, blob.slice(start, end), prefix, transaction, done, pool),
      );
      this.tracker.setPhase('uploading');
    }
  }

  /** The bytes of the chunk the server holds already (0: send it whole), forgotten once asked. */
  private takePrefix(chunkId: string, size: number): number {
    const prefix = this.prefixes.get(chunkId) ?? 0;
    this.prefixes.delete(chunkId);
    return prefix < size ? prefix : 0;
  }

  /** Sends a chunk (`bytes`), or its rest after the `prefix` the server holds. */
  private async sendChunk(
    chunkId: string,
    bytes: Blob,
    prefix: number,
    transaction: string,
    done: Set<string>,
    pool: TaskPool,
  ): Promise<void> {
    const startedAt = this.deps.now();
    const answer = await this.deps.http.call({
      method: 'POST',
      path: pushPaths.chunk(transaction, chunkId),
      body: prefix > 0 ? bytes.slice(prefix) : bytes,
      ...(prefix > 0 ? { headers: { [CHUNK_OFFSET_HEADER]: String(prefix) } } : {}),
      signal: this.signal,
    });
    if (prefix > 0 && answer.status === 409) {
      // The server no longer holds the prefix (a restart, another instance): send it whole.
      return this.sendChunk(chunkId, bytes, 0, transaction, done, pool);
    }
    if (isGone(answer)) throw new TransactionGone(detailOf(answer.data) ?? 'Transaction gone');
    if (!isOk(answer)) throw answerError(answer);
    this.inFlight.completed({ bytes: bytes.size - prefix, startedAt, endedAt: this.deps.now() });
    // The acknowledgement is written to IndexedDB while the next chunk goes out (finish waits
    // for it); should it be lost, the status call of the next attempt tells the same.
    pool.follow(
      this.deps.db.uploadChunks
        .put({ uploadId: this.id, chunkId, transaction, size: bytes.size, at: this.deps.now() })
        .then(() => undefined),
    );
    done.add(chunkId);
    this.progressMade = true;
    this.tracker.chunkDone(bytes.size);
  }

  /**
   * The server forgot the transaction: it finished (our finish answer was lost), or it was
   * cancelled or expired. The project tells which: at the base version a new push of the same
   * plan starts; past it with the plan's files in place the upload counts as finished.
   */
  private async resolveGone(record: UploadRecord): Promise<RunResult> {
    const project = await this.latestProject(record);
    if (versionNumber(project.version) === versionNumber(record.plan.body.version)) {
      await this.resetTransaction(null);
      throw new TransactionGone('Starting a new push');
    }
    if (projectMatchesPlan(project, record)) {
      return { kind: 'finished', project, files: record.offline?.rebased };
    }
    if (record.offline) throw new RebaseNeeded(project);
    throw new UploadFailure(projectChangedMessage(project.version));
  }
}

/** Runs upload `id` (its record must exist) until it finishes or fails; throws when aborted. */
export function runUpload(
  deps: RunnerDeps,
  id: string,
  tracker: ProgressTracker,
  signal: AbortSignal,
): Promise<RunResult> {
  return new UploadRun(deps, id, tracker, signal).run();
}
