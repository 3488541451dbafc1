/**
 * Starts the server: configuration, database (migrated), first-start setup, HTTP listener,
 * admin control socket, and graceful shutdown on SIGINT/SIGTERM.
 * `tsx server/src/main.ts` runs it; scripts/start.ts imports startServer.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { startControlSocket, type ControlSocket } from './admin/control-socket';
import { startChangesetWork } from './services/changesets';
import { startFileStoreWork } from './services/file-store';
import { buildApp } from './app';
import { bootstrap, type BootstrapResult } from './bootstrap';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, type Database } from './db/database';
import { migrate } from './db/migrate';
import { openBlobStore } from './storage/open-blob-store';
import { startSandbox } from './lib/sandbox';
import { startErrorText } from './start-error';

export interface StartOptions {
  /** Install SIGINT/SIGTERM handlers that shut down and exit (default true). */
  handleSignals?: boolean;
  /** On a start-up failure print the reason and exit(1) instead of throwing (default true). */
  exitOnError?: boolean;
  /** Where the start-up banner goes (default console.log). */
  print?: (line: string) => void;
  /** Built PWA folder (default <repo>/dist; null: API only). */
  distDir?: string | null;
  logger?: FastifyServerOptions['logger'];
}

export interface RunningServer {
  readonly app: FastifyInstance;
  readonly config: Config;
  readonly database: Database;
  readonly bootstrap: BootstrapResult;
  /** The port actually bound. */
  readonly port: number;
  /** Stops accepting requests, closes the admin socket and the database. Idempotent. */
  close(): Promise<void>;
}

function signInHint(config: Config, result: BootstrapResult): string {
  const admin = result.createdAdmin;
  if (admin?.generatedPassword) {
    return `Sign in as ${admin.username} with the password ${admin.generatedPassword}\n  (generated now and shown only once: change it after signing in)`;
  }
  if (admin) return `Sign in as ${admin.username} with the password from ADMIN_PASSWORD`;
  return `Sign in with the ADMIN_USERNAME account (${config.adminUsername}) or another user`;
}

export async function startServer(
  env: Record<string, string | undefined> = process.env,
  options: StartOptions = {},
): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => console.log(line));
  const exitOnError = options.exitOnError ?? true;

  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError && exitOnError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  let database: Database | null = null;
  let app: FastifyInstance | null = null;
  let socket: ControlSocket | null = null;
  try {
    database = await openDatabase(config);
    await migrate(database);
    const setup = await bootstrap(database, config);
    const blobStore = openBlobStore(config);
    await blobStore.checkAccess();
    app = buildApp({
      config,
      database,
      blobStore,
      distDir: options.distDir,
      logger: options.logger,
    });
    await app.listen({ host: config.host, port: config.port });
    app.scheduler.start();
    app.webhooks.start();
    // Durable work a stopped or killed process left (files to arrange, a conversion,
    // changesets) is taken up now, not at the scheduler's next claim: a process killed during
    // a scheduled pass holds that job's claim for its whole lease (an hour).
    startFileStoreWork(app.ctx);
    startChangesetWork(app.ctx);
    // A sandbox process per lane loads in the background: the first map asked for (its
    // layers, its point index) does not wait for one to start.
    startSandbox(app.ctx, 'interactive');
    startSandbox(app.ctx, 'background');
    const running = app;
    socket = await startControlSocket(
      config,
      database,
      {
        warn: (message) => running.log.warn(message),
        error: (obj, message) => running.log.error(obj, message),
      },
      { fileStoreWork: () => startFileStoreWork(running.ctx), fileStore: running.ctx },
    );

    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    print(`Waymark is running at ${config.baseUrl}`);
    print(signInHint(config, setup));

    const openApp = app;
    const openDb = database;
    const openSocket = socket;
    let closing: Promise<void> | null = null;
    const close = () =>
      (closing ??= (async () => {
        await openSocket?.close();
        await openApp.close();
        await openDb.close();
      })());

    if (options.handleSignals ?? true) {
      let signals = 0;
      const onSignal = (signal: NodeJS.Signals) => {
        signals++;
        if (signals > 1) process.exit(1);
        openApp.log.info(`${signal} received, shutting down`);
        close().then(
          () => process.exit(0),
          (error: unknown) => {
            console.error(error);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    }

    return { app, config, database, bootstrap: setup, port, close };
  } catch (error) {
    await socket?.close().catch(() => {});
    await app?.close().catch(() => {});
    await database?.close().catch(() => {});
    if (exitOnError) {
      console.error(`Waymark could not start: ${startErrorText(error)}`);
      process.exit(1);
    }
    throw error;
  }
}

function isEntryPoint(): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return fs.realpathSync(entry) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  await startServer(process.env);
}
