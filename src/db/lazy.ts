/**
 * The app's database, loaded on first use (issue 8 bundle budget): Dexie stays out of the
 * first screens' chunks. Modules on the render path import this, never './db' or '.' directly.
 */
import type { WaymarkDatabase } from './db';

let loading: Promise<WaymarkDatabase> | undefined;

export function loadDb(): Promise<WaymarkDatabase> {
  loading ??= import('./db').then((module) => module.db);
  return loading;
}
