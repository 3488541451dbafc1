/**
 * Maintenance (read-only) mode: on while the file DATA_DIR/MAINTENANCE exists, so any instance
 * sharing the data directory, or the admin CLI, can toggle it without a restart.
 */
import fs from 'node:fs';
import path from 'node:path';

export const MAINTENANCE_FILE = 'MAINTENANCE';

export function maintenanceFile(dataDir: string): string {
  return path.join(dataDir, MAINTENANCE_FILE);
}

/**
 * One synchronous stat() per call: a few microseconds, where an async fs call would cost a
 * thread-pool round trip (a third of a millisecond) on every /ping and mutation.
 */
export async function isMaintenance(dataDir: string): Promise<boolean> {
  return fs.existsSync(maintenanceFile(dataDir));
}

export function setMaintenance(dataDir: string, on: boolean): void {
  const file = maintenanceFile(dataDir);
  if (on) {
    fs.writeFileSync(file, `Maintenance mode switched on at ${new Date().toISOString()}\n`);
  } else {
    fs.rmSync(file, { force: true });
  }
}
