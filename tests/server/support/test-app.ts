/**
 * Builds the real app on a fresh database for integration tests (app.inject, no network),
 * plus a tiny cookie-keeping client.
 */
import path from 'node:path';
import type {
  FastifyInstance,
  FastifyServerOptions,
  InjectOptions,
  LightMyRequestResponse,
} from 'fastify';
import { buildApp } from '../../../server/src/app';
import { bootstrap, type BootstrapResult } from '../../../server/src/bootstrap';
import { loadConfig, type Config } from '../../../server/src/config';
import { openDatabase, type Database } from '../../../server/src/db/database';
import { migrate } from '../../../server/src/db/migrate';
import type { Mailer } from '../../../server/src/email';
import { OUTBOX_DIR, readOutbox, type OutboxMail } from '../../../server/src/email/outbox-mailer';
import { openBlobStore } from '../../../server/src/storage/open-blob-store';
import { TEST_FILE_WORK } from './processes';
import { createTestDataDir, type TestDataDir } from './test-db';

export const ADMIN_PASSWORD = 'Admin-Password-1';

/** A controllable clock. */
export class TestClock {
  constructor(public ms = Date.now()) {}
  now = (): Date => new Date(this.ms);
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  data: TestDataDir;
  clock: TestClock;
  setup: BootstrapResult;
  /** A client with its own cookie jar. */
  client(): TestClient;
  /** DATA_DIR/outbox, where mail goes without SMTP_URL. */
  outboxDir: string;
  /** The mails in the outbox so far, oldest first. */
  outbox(): Promise<OutboxMail[]>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  distDir?: string | null;
  /** Registers extra test-only routes before the app boots. */
  extend?: (app: FastifyInstance) => void;
  /** Fastify logger setting (default: off). */
  logger?: FastifyServerOptions['logger'];
  /** Mailer (default: the outbox in DATA_DIR). */
  mailer?: Mailer;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const data = await createTestDataDir();
  const config = loadConfig({
    ...data.env,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    ...TEST_FILE_WORK,
    ...options.env,
  });
  const database = await openDatabase(config);
  await migrate(database);
  const setup = await bootstrap(database, config);
  const clock = new TestClock();
  const app = buildApp({
    config,
    database,
    blobStore: openBlobStore(config),
    now: clock.now,
    distDir: options.distDir ?? null,
    logger: options.logger ?? false,
    mailer: options.mailer,
  });
  options.extend?.(app);
  await app.ready();
  return {
    app,
    config,
    database,
    data,
    clock,
    setup,
    client: () => new TestClient(app),
    outboxDir: path.join(config.dataDir, OUTBOX_DIR),
    outbox: () => readOutbox(path.join(config.dataDir, OUTBOX_DIR)),
    async close() {
      await app.close();
      await database.close();
      await data.cleanup();
    },
  };
}

type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RequestOptions {
  headers?: Record<string, string>;
  /** JSON body (sent with content-type application/json). */
  json?: unknown;
  /** Raw payload (set the content type yourself). */
  payload?: string | Buffer;
  /** Send the stored CSRF token (default true). */
  csrf?: boolean;
  /**
   * A binary answer (a download): kept as bytes (`rawPayload`), its text (`body`, `json()`)
   * decoded only if read. Decoding a 12 MB GeoPackage as UTF-8 costs about as much CPU as
   * serving it, for every download; so read `body` only when the status is not the one
   * expected (`expect(status, body)` decodes it on every call).
   */
  bytes?: boolean;
}

/** Collects a streamed answer into `rawPayload`; `payload`, `body` and `json()` decode it when read. */
async function keepBytes(response: LightMyRequestResponse): Promise<LightMyRequestResponse> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.stream()) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  const text = () => bytes.toString();
  Object.defineProperties(response, {
    rawPayload: { value: bytes },
    payload: { get: text },
    body: { get: text },
    json: { value: () => JSON.parse(text()) as unknown },
  });
  return response;
}

/** Keeps cookies between requests like a browser, and the last CSRF token it was given. */
export class TestClient {
  readonly cookies = new Map<string, string>();
  csrfToken: string | null = null;

  constructor(private readonly app: FastifyInstance) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request(
    method: Method,
    url: string,
    options: RequestOptions = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0 && !('cookie' in headers)) headers.cookie = this.cookieHeader();
    if ((options.csrf ?? true) && this.csrfToken && !('x-csrf-token' in headers)) {
      headers['x-csrf-token'] = this.csrfToken;
    }
    const inject: InjectOptions = { method, url, headers };
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      inject.payload = JSON.stringify(options.json);
    } else if (options.payload !== undefined) {
      inject.payload = options.payload;
    }
    if (options.bytes) inject.payloadAsStream = true;
    const injected = await this.app.inject(inject);
    const response = options.bytes ? await keepBytes(injected) : injected;
    for (const cookie of response.cookies as {
      name: string;
      value: string;
      maxAge?: number;
      expires?: Date;
    }[]) {
      const expired =
        cookie.maxAge === 0 ||
        (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now());
      if (expired || cookie.value === '') this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    const token = response.headers['x-csrf-token'];
    if (typeof token === 'string') this.csrfToken = token;
    return response;
  }

  get(url: string, options?: RequestOptions) {
    return this.request('GET', url, options);
  }

  delete(url: string, options?: RequestOptions) {
    return this.request('DELETE', url, options);
  }

  post(url: string, json?: unknown, options: RequestOptions = {}) {
    return this.request('POST', url, { ...options, json });
  }

  /** GET /app/init: obtains the CSRF cookie and token. */
  async init(): Promise<{ authenticated: boolean; superuser: boolean }> {
    const response = await this.get('/app/init');
    return response.json();
  }

  /** init + login; throws unless the login succeeds. */
  async login(login: string, password: string): Promise<void> {
    if (!this.csrfToken) await this.init();
    const response = await this.post('/app/auth/login', { login, password });
    if (response.statusCode !== 200) {
      throw new Error(`login failed: ${response.statusCode} ${response.body}`);
    }
  }
}

/**
 * Runs `fn` with a second instance of the app on the same database, blob store and clock (as
 * behind a load balancer; no jobs), closed afterwards.
 */
export async function withSecondInstance<T>(
  t: TestApp,
  fn: (app: FastifyInstance) => Promise<T>,
): Promise<T> {
  const other = buildApp({
    config: t.config,
    database: t.database,
    blobStore: openBlobStore(t.config),
    now: t.clock.now,
    distDir: null,
    logger: false,
    jobs: [],
  });
  await other.ready();
  try {
    return await fn(other);
  } finally {
    await other.close();
  }
}

/**
 * A JSON POST from client `address` as a browser sends it: GET /app/init for the CSRF
 * cookie and token first (the limits count per client address).
 */
export async function postFrom(
  app: FastifyInstance,
  address: string,
  url: string,
  json: unknown,
  /** Sent with both requests (e.g. X-Forwarded-For). */
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const init = await app.inject({ url: '/app/init', remoteAddress: address, headers });
  return app.inject({
    method: 'POST',
    url,
    remoteAddress: address,
    headers: {
      ...headers,
      cookie: init.cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'content-type': 'application/json',
      'x-csrf-token': String(init.headers['x-csrf-token']),
    },
    payload: JSON.stringify(json),
  });
}

/**
 * The last link of a kind (a path part such as `/confirm-email/` or `/invitations/`) mailed to
 * `to` (as the mail names it); mails of one instant of the test clock are in no particular order,
 * so the kind tells them apart.
 */
export async function lastMailedLink(t: TestApp, to: string, kind: string): Promise<string> {
  const link = (await t.outbox())
    .filter((m) => m.to === to)
    .flatMap((m) => m.links)
    .filter((l) => l.includes(kind))
    .at(-1);
  if (!link) throw new Error(`no ${kind} link to ${to}`);
  return link;
}

/** Asserts the problem+json shape and returns the detail. */
export function problem(response: LightMyRequestResponse): {
  status: number;
  detail: unknown;
  title: string;
  type: string;
} {
  const type = response.headers['content-type'];
  if (type !== 'application/problem+json') {
    throw new Error(`expected application/problem+json, got ${String(type)}: ${response.body}`);
  }
  return response.json();
}

/** Collects Fastify's log lines (JSON objects) for assertions. */
export function captureLogs(level = 'info'): {
  lines: { level: number; msg: string; [key: string]: unknown }[];
  logger: FastifyServerOptions['logger'];
} {
  const lines: { level: number; msg: string; [key: string]: unknown }[] = [];
  return {
    lines,
    logger: {
      level,
      stream: {
        write(line: string) {
          lines.push(JSON.parse(line));
        },
      },
    },
  };
}
