/**
 * Work on users' files, run in child processes within a budget (README.md). Two pools, by
 * lane: `interactive` for a person waiting (the map, the attribute table, compare, a conflict
 * shown; three processes, so one caller's heavy requests leave one for the others) and
 * `background` for the rest (applying a pushed diff, changesets, point indexes; two), so
 * neither waits behind the other. A function of a server module is run there with
 * `sandboxModule<typeof M>(new URL('./m.ts', import.meta.url)).fn('name')`, with
 * `import type * as M from './m'`.
 */
import type { AppContext } from '../../context';
import { workBudget, WorkTooHeavyError, type OverBudget, type WorkLane } from './budget';
import type { CrossedError } from './protocol';
import { sandboxPool, type Pool } from './runner';

export { verdictCounts } from './runner';

export { WorkTooHeavyError, FILE_TOO_COMPLEX, type WorkLane } from './budget';
export type { CrossedError } from './protocol';

/** Most processes per lane. */
export const SANDBOX_PROCESSES: Record<WorkLane, number> = { interactive: 3, background: 2 };

const pools: Record<WorkLane, Pool> = {
  interactive: sandboxPool({
    label: 'The interactive sandbox',
    size: SANDBOX_PROCESSES.interactive,
  }),
  background: sandboxPool({ label: 'The background sandbox', size: SANDBOX_PROCESSES.background }),
};

/** What running work in the sandbox needs of the server (its budgets and its log). */
export type SandboxContext = Pick<AppContext, 'config' | 'log'>;

export interface SandboxCall {
  lane: WorkLane;
  /** Work over budget is remembered under this key (start it with the file's SHA-1). */
  verdictKey?: string;
  /** The 422's text when the work is stopped over its budget (default FILE_TOO_COMPLEX). */
  tooHeavy?: string;
  /** Rebuilds an error the work threw (by its name); absent or null: a plain Error. */
  revive?(error: CrossedError): Error | null;
  /** Who asks (`user:<id>`, `address:<ip>`): one caller never takes the last free process. */
  owner?: string;
}

type AnyFunction = (...args: never[]) => unknown;

/** A module function run in the sandbox: same arguments, after the context and the call. */
export type Sandboxed<F extends AnyFunction> = (
  ctx: SandboxContext,
  call: SandboxCall,
  ...args: Parameters<F>
) => Promise<Awaited<ReturnType<F>>>;

/** The functions of a server module (given by its file URL), run in the sandbox. */
export function sandboxModule<M>(module: URL) {
  return {
    fn<K extends keyof M & string>(name: K): M[K] extends AnyFunction ? Sandboxed<M[K]> : never {
      const run = async (ctx: SandboxContext, call: SandboxCall, ...args: unknown[]) => {
        try {
          return await pools[call.lane].run(
            { module: module.href, name, args },
            {
              budget: workBudget(ctx.config, call.lane),
              verdictKey: call.verdictKey,
              tooHeavy: (reason: OverBudget) => new WorkTooHeavyError(reason, call.tooHeavy),
              revive: call.revive,
              owner: call.owner,
            },
          );
        } catch (error) {
          if (error instanceof WorkTooHeavyError) {
            ctx.log.warn(
              { work: name, verdict: call.verdictKey, reason: error.reason, output: error.output },
              'Work on a file was stopped over its budget',
            );
          }
          throw error;
        }
      };
      return run as never;
    },
  };
}

/** The sandbox owner of a request: its user, else its address. */
export function ownerOf(user: { id: number } | null, address: string): string {
  return user ? `user:${user.id}` : `address:${address}`;
}

/** Starts a process of the lane ahead of the first request (a map asked for). */
export function startSandbox(ctx: AppContext, lane: WorkLane): void {
  pools[lane].start(ctx.config.fileWork);
}

/** Ends every sandbox process (tests). */
export function stopSandboxes(): void {
  for (const pool of Object.values(pools)) pool.stop();
}
