/**
 * In-process scheduler for periodic jobs, safe with several instances on one database: a
 * due job is claimed through its job_runs row (db/queries/jobs.ts), so exactly one instance
 * runs it; the claim is a lease, so a job whose instance died is taken over once the lease
 * runs out. A failed run is logged and tried again at the next poll.
 *
 * buildApp composes the scheduler with defaultJobs() (or the jobs it is given) and without
 * timers (tests call runDue with their clock); main.ts starts polling. The context knows the
 * scheduler only by its interface (context.ts JobScheduler), so services importing the
 * context do not import the jobs.
 */
import type { AppContext, JobOutcome, JobScheduler } from '../context';
import { claimJob, ensureJobRow, finishJob, releaseJob } from '../db/queries/jobs';
import { AUDIT_RETENTION_JOB, purgeOldAuditEntries } from '../services/audit';
import { COMPUTE_CHANGESETS_JOB, runPendingChangesets } from '../services/changesets';
import { FILE_STORE_JOB, runFileStoreTasks } from '../services/file-store';
import { purgeRemovedProjects } from '../services/purge';
import { cleanupUploads } from '../services/push';
import { pruneWebhookLog, WEBHOOK_LOG_JOB } from '../services/webhooks/retention';

export interface Job {
  name: string;
  /** Time between runs (from the end of one run to the start of the next). */
  intervalMs: number;
  /** How long a claim lasts; longer than any run. */
  leaseMs: number;
  run(ctx: AppContext): Promise<unknown>;
}

export type { JobOutcome };

const HOUR = 3600 * 1000;

export const PURGE_JOB = 'purge-removed-projects';
export const UPLOAD_CLEANUP_JOB = 'cleanup-abandoned-uploads';
export const BLOB_TEMP_JOB = 'sweep-blob-store-temp';
/** Temp files and unfinished multipart uploads older than this were left by a crash. */
export const BLOB_TEMP_MAX_AGE_MS = 24 * HOUR;

async function sweepBlobTemp(ctx: AppContext): Promise<void> {
  const removed = await ctx.blobStore.sweepTemp(BLOB_TEMP_MAX_AGE_MS, ctx.now().getTime());
  if (removed > 0) ctx.log.info({ removed }, `Removed ${removed} abandoned blob store write(s)`);
}

/** The server's jobs. */
export function defaultJobs(): Job[] {
  return [
    { name: PURGE_JOB, intervalMs: HOUR, leaseMs: HOUR, run: purgeRemovedProjects },
    { name: UPLOAD_CLEANUP_JOB, intervalMs: HOUR, leaseMs: HOUR, run: cleanupUploads },
    { name: BLOB_TEMP_JOB, intervalMs: HOUR, leaseMs: HOUR, run: sweepBlobTemp },
    // Audit entries past AUDIT_RETENTION_DAYS.
    { name: AUDIT_RETENTION_JOB, intervalMs: HOUR, leaseMs: HOUR, run: purgeOldAuditEntries },
    { name: WEBHOOK_LOG_JOB, intervalMs: HOUR, leaseMs: HOUR, run: pruneWebhookLog },
    // Changesets left pending (a crash, versions made by the admin CLI): every poll.
    { name: COMPUTE_CHANGESETS_JOB, intervalMs: 0, leaseMs: HOUR, run: runPendingChangesets },
    // Whole copies of GeoPackages due to be written or dropped (services/file-store/), and
    // the conversion of old data: every poll (each file is claimed on its own).
    { name: FILE_STORE_JOB, intervalMs: 0, leaseMs: HOUR, run: runFileStoreTasks },
  ];
}

/** How often a running server looks for due jobs. */
export const POLL_INTERVAL_MS = 60 * 1000;

export class Scheduler implements JobScheduler {
  private timer: NodeJS.Timeout | null = null;
  private firstPoll: NodeJS.Timeout | null = null;
  private current: Promise<Record<string, JobOutcome>> | null = null;

  constructor(
    private readonly ctx: AppContext,
    readonly jobs: readonly Job[],
  ) {}

  /** Runs every job that is due and not claimed elsewhere; one pass at a time. */
  runDue(): Promise<Record<string, JobOutcome>> {
    this.current ??= this.pass().finally(() => {
      this.current = null;
    });
    return this.current;
  }

  private async pass(): Promise<Record<string, JobOutcome>> {
    const outcomes: Record<string, JobOutcome> = {};
    for (const job of this.jobs) outcomes[job.name] = await this.runIfDue(job);
    return outcomes;
  }

  private async runIfDue(job: Job): Promise<JobOutcome> {
    const { ctx } = this;
    const db = ctx.database.db;
    const now = ctx.now();
    await ensureJobRow(db, job.name);
    const claimed = await claimJob(
      db,
      job.name,
      now,
      new Date(now.getTime() - job.intervalMs),
      new Date(now.getTime() + job.leaseMs),
    );
    if (!claimed) return 'skipped';
    try {
      await job.run(ctx);
    } catch (error) {
      ctx.log.error({ err: error, job: job.name }, `Job ${job.name} failed`);
      await releaseJob(db, job.name).catch(() => {});
      return 'failed';
    }
    await finishJob(db, job.name, ctx.now());
    return 'ran';
  }

  /** Polls for due jobs every `pollMs` (first poll soon after start). */
  start(pollMs = POLL_INTERVAL_MS): void {
    if (this.timer) return;
    const poll = () => {
      this.runDue().catch((error: unknown) => {
        this.ctx.log.error({ err: error }, 'Scheduled jobs could not run');
      });
    };
    this.timer = setInterval(poll, pollMs);
    this.timer.unref();
    this.firstPoll = setTimeout(poll, Math.min(pollMs, 5000));
    this.firstPoll.unref();
  }

  /** Stops polling and waits for a running pass. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.firstPoll) clearTimeout(this.firstPoll);
    this.timer = null;
    this.firstPoll = null;
    await this.current?.catch(() => {});
  }
}
