/**
 * The routes the server registers, for code that runs without a serving app (the admin
 * command line): the app is built on the given database and closed again, serving nothing.
 * The table is the code's, so it is built once per process.
 */
import { buildApp } from './app';
import type { Config } from './config';
import type { Database } from './db/database';
import { shadowingWords } from './lib/route-words';
import { openBlobStore } from './storage/open-blob-store';

let words: Promise<Set<string>> | null = null;

async function buildWords(config: Config, database: Database): Promise<Set<string>> {
  const app = buildApp({
    config,
    database,
    blobStore: openBlobStore(config),
    distDir: null,
    logger: false,
    jobs: [],
  });
  try {
    await app.ready();
    return shadowingWords(app.routeIndex.list().map((route) => route.url));
  } finally {
    await app.close();
  }
}

/** Words a workspace may not be named (see lib/route-words.ts). */
export function workspaceRouteWords(config: Config, database: Database): Promise<Set<string>> {
  words ??= buildWords(config, database).catch((error: unknown) => {
    words = null;
    throw error;
  });
  return words;
}
