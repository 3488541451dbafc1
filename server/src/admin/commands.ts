/**
 * The admin commands (`npm run admin -- <command>`). Parsing and execution are shared by the
 * CLI's direct path and the running server's control socket, so both behave the same.
 * Exit codes: 0 success, 1 failure (e.g. the user exists), 2 usage error.
 */
import type { Config } from '../config';
import type { Database } from '../db/database';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../schemas/roles';
import { isValidEmail, usernameError, workspaceNameError } from '../lib/validation';
import path from 'node:path';
import { setMaintenance } from '../maintenance';
import { importFolder } from '../services/project-import';
import { openBlobStore } from '../storage/open-blob-store';
import { validatePassword } from '../auth/passwords';
import {
  AdminError,
  createUser,
  createWorkspace,
  setWorkspaceRole,
} from '../services/accounts-admin';
import { workspaceRouteWords } from '../route-table';
import {
  closeFileCache,
  conversionStatus,
  queueConversion,
  runFileStoreTasks,
  verifyRebuilds,
  type ConversionStatus,
  type FileStoreContext,
} from '../services/file-store';

export const USAGE = `Usage: npm run admin -- <command>

Commands:
  user create <username> <email> <password> [--superuser]
      Create an active user with a verified email (--superuser: instance administrator).
  workspace create <name> [--storage <bytes>]
      Create a workspace (storage defaults to GLOBAL_STORAGE).
  workspace role <workspace> <username> <role>
      Set a user's role in a workspace; role is one of ${WORKSPACE_ROLES.join(', ')}.
  project import <workspace> <project> <folder> [--replace]
      Import the files of a folder on this machine into a project as one new version
      (--replace: also remove project files that are not in the folder).
  maintenance on|off
      Switch read-only maintenance mode on or off (all instances sharing DATA_DIR).
  storage convert
      Store the older versions of GeoPackage and SQLite files pushed as diffs as those diffs,
      with whole copies where the checkpoint rule keeps them (in the server's background
      while it runs, resumable; without a running server, here until done).
  storage status
      Show the conversion's progress and what the blob store holds.
  storage verify [--limit <n>]
      Rebuild the newest n versions stored as their diffs (default 20) and check their
      SHA-1, e.g. after upgrading the SQLite library; lists the ones that fail.
  help
      Show this help.

The commands use the same environment variables as the server (DATA_DIR, DATABASE_URL, ...).
While the server runs, they are carried out by the server through DATA_DIR/admin.sock.`;

export type Command =
  | { kind: 'help' }
  | { kind: 'user-create'; username: string; email: string; password: string; superuser: boolean }
  | { kind: 'workspace-create'; name: string; storage: number | null }
  | { kind: 'workspace-role'; workspace: string; username: string; role: WorkspaceRole }
  | { kind: 'project-import'; workspace: string; project: string; folder: string; replace: boolean }
  | { kind: 'maintenance'; on: boolean }
  | { kind: 'storage-convert' }
  | { kind: 'storage-status' }
  | { kind: 'storage-verify'; limit: number };

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CommandResult {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

function splitFlags(
  args: string[],
  valued: string[],
): {
  positional: string[];
  flags: Map<string, string | true>;
} {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
      if (valued.includes(name)) {
        const value = inline ?? args[++i];
        if (value === undefined) throw new UsageError(`--${name} needs a value`);
        flags.set(name, value);
      } else {
        if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
        flags.set(name, true);
      }
    } else {
      positional.push(arg);
    }
  }
  return { positional, flags };
}

function expectArgs(positional: string[], names: string[]): void {
  if (positional.length < names.length) {
    throw new UsageError(
      `Missing ${names
        .slice(positional.length)
        .map((n) => `<${n}>`)
        .join(' ')}`,
    );
  }
  if (positional.length > names.length) {
    throw new UsageError(`Unexpected argument "${positional[names.length]}"`);
  }
}

function rejectUnknownFlags(flags: Map<string, unknown>, known: string[]): void {
  for (const name of flags.keys()) {
    if (!known.includes(name)) throw new UsageError(`Unknown option --${name}`);
  }
}

/** Validates argv; throws UsageError with a one-line reason. */
export function parseCommand(argv: string[]): Command {
  const [group, action, ...rest] = argv;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') {
    return { kind: 'help' };
  }
  if (group === 'user' && action === 'create') {
    const { positional, flags } = splitFlags(rest, []);
    rejectUnknownFlags(flags, ['superuser']);
    expectArgs(positional, ['username', 'email', 'password']);
    const [username, email, password] = positional as [string, string, string];
    const usernameProblem = usernameError(username);
    if (usernameProblem) throw new UsageError(`Username ${usernameProblem}`);
    if (!isValidEmail(email)) throw new UsageError(`Email address '${email}' is invalid.`);
    const passwordProblem = validatePassword(password);
    if (passwordProblem) throw new UsageError(passwordProblem);
    return { kind: 'user-create', username, email, password, superuser: flags.has('superuser') };
  }
  if (group === 'workspace' && action === 'create') {
    const { positional, flags } = splitFlags(rest, ['storage']);
    rejectUnknownFlags(flags, ['storage']);
    expectArgs(positional, ['name']);
    const name = positional[0]!;
    const problem = workspaceNameError(name);
    if (problem) throw new UsageError(`Workspace name ${problem}`);
    const storageFlag = flags.get('storage');
    let storage: number | null = null;
    if (storageFlag !== undefined) {
      const text = String(storageFlag);
      storage = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(storage)) {
        throw new UsageError(`--storage must be a whole number of bytes (got "${text}")`);
      }
    }
    return { kind: 'workspace-create', name, storage };
  }
  if (group === 'workspace' && action === 'role') {
    const { positional, flags } = splitFlags(rest, []);
    rejectUnknownFlags(flags, []);
    expectArgs(positional, ['workspace', 'username', 'role']);
    const [workspace, username, role] = positional as [string, string, string];
    if (!(WORKSPACE_ROLES as readonly string[]).includes(role)) {
      throw new UsageError(`Role must be one of ${WORKSPACE_ROLES.join(', ')} (got "${role}")`);
    }
    return { kind: 'workspace-role', workspace, username, role: role as WorkspaceRole };
  }
  if (group === 'project' && action === 'import') {
    const { positional, flags } = splitFlags(rest, []);
    rejectUnknownFlags(flags, ['replace']);
    expectArgs(positional, ['workspace', 'project', 'folder']);
    const [workspace, project, folder] = positional as [string, string, string];
    return { kind: 'project-import', workspace, project, folder, replace: flags.has('replace') };
  }
  if (group === 'maintenance') {
    if ((action === 'on' || action === 'off') && rest.length === 0) {
      return { kind: 'maintenance', on: action === 'on' };
    }
    throw new UsageError('maintenance needs "on" or "off"');
  }
  if (group === 'storage') {
    if ((action === 'convert' || action === 'status') && rest.length === 0) {
      return { kind: action === 'convert' ? 'storage-convert' : 'storage-status' };
    }
    if (action === 'verify') {
      const { positional, flags } = splitFlags(rest, ['limit']);
      rejectUnknownFlags(flags, ['limit']);
      expectArgs(positional, []);
      const text = String(flags.get('limit') ?? '20');
      const limit = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(limit) || limit < 1) {
        throw new UsageError(`--limit must be a whole number above 0 (got "${text}")`);
      }
      return { kind: 'storage-verify', limit };
    }
    throw new UsageError('storage needs "convert", "status" or "verify"');
  }
  if (group === 'user' || group === 'workspace' || group === 'project') {
    throw new UsageError(`Unknown command "${[group, action].filter(Boolean).join(' ')}"`);
  }
  throw new UsageError(`Unknown command "${group}"`);
}

/** Commands that work on files only, without the database. */
export function needsDatabase(command: Command): boolean {
  return command.kind !== 'help' && command.kind !== 'maintenance';
}

export interface CommandContext {
  config: Config;
  /** Opened lazily: help and maintenance do not need it. */
  getDatabase(): Promise<Database>;
  /** The CLI's working folder, for relative paths (the server's may differ). */
  cwd?: string;
  /**
   * Starts the running server's background work on files' copies (services/file-store/);
   * absent when no server runs (the command then does the work itself).
   */
  fileStoreWork?: () => void;
  /** The running server's file store (its cache); absent: one is made for the command. */
  fileStore?: FileStoreContext;
}

const ok = (stdout: string): CommandResult => ({ code: 0, stdout: `${stdout}\n`, stderr: '' });

export async function executeCommand(
  command: Command,
  ctx: CommandContext,
): Promise<CommandResult> {
  try {
    switch (command.kind) {
      case 'help':
        return ok(USAGE);
      case 'maintenance':
        setMaintenance(ctx.config.dataDir, command.on);
        return ok(`Maintenance mode is ${command.on ? 'on' : 'off'}.`);
      case 'user-create': {
        const user = await createUser(await ctx.getDatabase(), ctx.config, command);
        return ok(
          `Created user "${user.username}" (id ${user.id})${user.isAdmin ? ' as a superuser' : ''}.`,
        );
      }
      case 'workspace-create': {
        const database = await ctx.getDatabase();
        const workspace = await createWorkspace(
          database,
          { name: command.name, storage: command.storage ?? ctx.config.globalStorage },
          await workspaceRouteWords(ctx.config, database),
        );
        return ok(
          `Created workspace "${workspace.name}" (id ${workspace.id}, storage ${workspace.storage} bytes).`,
        );
      }
      case 'project-import': {
        const result = await importFolder(await ctx.getDatabase(), openBlobStore(ctx.config), {
          ...command,
          folder: path.resolve(ctx.cwd ?? process.cwd(), command.folder),
        });
        if (result.version === null) {
          return ok(`No changes: all ${result.unchanged} files are already in the project.`);
        }
        return ok(
          `Created v${result.version} of ${command.workspace}/${command.project}: ${result.added} added, ${result.updated} updated, ${result.removed} removed, ${result.unchanged} unchanged.`,
        );
      }
      case 'storage-convert': {
        const database = await ctx.getDatabase();
        const queued = await queueConversion(database, new Date());
        if (!queued.started) {
          return ok(`A conversion is already running.\n${describeStatus(queued.status)}`);
        }
        if (ctx.fileStoreWork) {
          ctx.fileStoreWork();
          return ok(
            `Queued ${queued.status.conversion?.filesTotal ?? 0} file(s) for conversion; the server converts them in the background (npm run admin -- storage status).`,
          );
        }
        await convertHere(ctx.config, database);
        return ok(describeStatus(await conversionStatus(database)));
      }
      case 'storage-status':
        return ok(describeStatus(await conversionStatus(await ctx.getDatabase())));
      case 'storage-verify': {
        const store = ctx.fileStore ?? storeContext(ctx.config, await ctx.getDatabase());
        let result: Awaited<ReturnType<typeof verifyRebuilds>>;
        try {
          result = await verifyRebuilds(store, command.limit);
        } finally {
          if (!ctx.fileStore) await closeFileCache(store);
        }
        if (result.failed.length === 0) {
          return ok(`Rebuilt ${result.checked} version(s) stored as diffs: all exact.`);
        }
        return {
          code: 1,
          stdout: '',
          stderr: `${result.failed.length} of ${result.checked} version(s) could not be rebuilt exactly (blobs ${result.failed.join(', ')}); the log says why.\n`,
        };
      }
      case 'workspace-role': {
        const { workspace, user } = await setWorkspaceRole(await ctx.getDatabase(), command);
        return ok(
          `User "${user.username}" is now ${command.role} in workspace "${workspace.name}".`,
        );
      }
    }
  } catch (error) {
    if (error instanceof AdminError) return { code: 1, stdout: '', stderr: `${error.message}\n` };
    throw error;
  }
}

const MiB = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;

/** The conversion's progress in words. */
export function describeStatus(status: ConversionStatus): string {
  const c = status.conversion;
  const f = status.figures;
  const store = `Blob store: ${MiB(f.storedBytes)} stored; ${f.withRecipe} file version(s) with a recipe (a diff on the version before), ${f.asDiffs} of them without a whole copy.`;
  if (!c) return `No conversion has run.\n${store}`;
  const state = c.finishedAt
    ? `finished ${c.finishedAt.toISOString()}`
    : `running since ${c.startedAt.toISOString()}`;
  return [
    `Conversion ${state}: ${c.filesDone} of ${c.filesTotal} file(s) done, ${status.waiting} waiting.`,
    `Converted so far: ${c.versionsWithRecipe} version(s) given a recipe, ${c.copiesDropped} whole copies dropped (${MiB(c.bytesFreed)} freed).`,
    store,
  ].join('\n');
}

/** What the file store needs, built here (the CLI without a running server, or the socket's). */
function storeContext(config: Config, database: Database): FileStoreContext {
  const quiet = config.logLevel === 'silent';
  const say =
    (level: string) =>
    (obj: unknown, message?: string): void => {
      if (quiet) return;
      const text = typeof obj === 'string' ? obj : (message ?? '');
      const err = (obj as { err?: Error } | null)?.err;
      process.stderr.write(`${level}: ${text}${err ? ` (${err.message})` : ''}\n`);
    };
  const ignore = () => {};
  const log = {
    level: 'warn',
    fatal: say('fatal'),
    error: say('error'),
    warn: say('warn'),
    info: ignore,
    debug: ignore,
    trace: ignore,
    silent: ignore,
    child: () => log,
  } as unknown as FileStoreContext['log'];
  return { config, database, blobStore: openBlobStore(config), log, now: () => new Date() };
}

/** Converts here, without a running server (the same work, to the end). */
async function convertHere(config: Config, database: Database): Promise<void> {
  const store = storeContext(config, database);
  try {
    await runFileStoreTasks(store);
  } finally {
    await closeFileCache(store);
  }
}

/** Parses and runs one command line; usage errors come back as exit code 2. */
export async function runAdminCommand(argv: string[], ctx: CommandContext): Promise<CommandResult> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error.message);
    throw error;
  }
  return executeCommand(command, ctx);
}

export function usageFailure(message: string): CommandResult {
  return { code: 2, stdout: '', stderr: `Error: ${message}\n\n${USAGE}\n` };
}
