// Where the end-to-end server runs and with which superuser; shared by playwright.config.ts
// and the specs.
import { resolve } from 'node:path';

export const e2ePort = Number(process.env.E2E_PORT ?? 8099);
export const e2eDataDir = resolve(process.env.E2E_DATA_DIR ?? `.data-e2e-${e2ePort}`);
export const e2eAdmin = { username: 'admin', password: 'E2e-admin-Passw0rd!' };
