/**
 * Builds the Fastify application: plugins first (errors, cookies, CSRF, maintenance, auth),
 * then the routes, then the fallback for everything else (405 for a known path with another
 * method, the PWA's static files and SPA routes, otherwise a JSON 404). Does not listen:
 * tests drive it with app.inject(), main.ts binds it to a port.
 */
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ConfigError, type Config } from './config';
import type { AppContext } from './context';
import type { Database } from './db/database';
import { ReadCache } from './db/read-cache';
import { createMailer, type Mailer } from './email';
import { HttpProblem } from './errors';
import { defaultJobs, Scheduler, type Job } from './jobs/scheduler';
import { reservedWorkspaceNameError, shadowingWords } from './lib/route-words';
import authPlugin, { signedIn } from './plugins/auth';
import { changesetWorkIdle } from './services/changesets';
import { WebhookDispatcher } from './services/webhooks';
import { closeFileCache, fileStoreWorkIdle, stopFileStoreWork } from './services/file-store';
import csrfPlugin from './plugins/csrf';
import errorsPlugin, { isApiPath, sendProblem } from './plugins/errors';
import maintenancePlugin from './plugins/maintenance';
import { createRouteIndex } from './plugins/route-index';
import inputGuardPlugin from './plugins/input-guard';
import { AJV_CUSTOM_OPTIONS, partValidators } from './plugins/validation';
import securityHeadersPlugin, { applySecurityHeaders } from './plugins/security-headers';
import { registerStaticFiles } from './plugins/static-files';
import accessRequestRoutes from './routes/access-requests';
import auditRoutes from './routes/audit';
import { authRoutes, publicAuthRoutes } from './routes/auth';
import collaboratorRoutes from './routes/collaborators';
import { editRoutes, formRoutes } from './routes/capture';
import diagnosticLogRoutes from './routes/diagnostic-logs';
import downloadRoutes from './routes/downloads';
import exportRoutes from './routes/export';
import ogcRoutes from './routes/ogc';
import oidcRoutes from './routes/oidc';
import historyRoutes from './routes/history';
import instanceRoutes from './routes/instance';
import mapRoutes from './routes/map';
import { projectRoutes, publicProjectRoutes } from './routes/projects';
import personalTokenRoutes from './routes/personal-tokens';
import pushRoutes from './routes/push';
import pullV2Routes from './routes/pull-v2';
import pushV2Routes from './routes/push-v2';
import { timeTravelReadRoutes, timeTravelWriteRoutes } from './routes/time-travel';
import userRoutes from './routes/users';
import { publicViewLinkRoutes, viewLinkRoutes } from './routes/view-links';
import webhookRoutes from './routes/webhooks';
import workspaceRoutes from './routes/workspaces';
import workspaceMemberRoutes, { publicInvitationRoutes } from './routes/workspace-members';
import type { BlobStore } from './storage/blob-store';
import { loggerOptions } from './logging';

/** Paths that always answer JSON (never the SPA's index.html). */
export const API_PREFIXES = ['/v1', '/v2', '/app', '/ogc', '/ping', '/config', '/alive'] as const;

/** Longest path parameter accepted (characters, as sent). */
export const MAX_PARAM_LENGTH = 2048;

/** Default body limit for JSON routes; routes that stream files set their own. */
export const JSON_BODY_LIMIT = 1024 * 1024;

/** <repo>/dist, where `vite build` puts the PWA. */
export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../dist', import.meta.url));

export interface BuildAppOptions {
  config: Config;
  database: Database;
  blobStore: BlobStore;
  /** Clock (tests inject one). */
  now?: () => Date;
  /** Outgoing mail; default: SMTP when SMTP_URL is set, else DATA_DIR/outbox. */
  mailer?: Mailer;
  /** Folder of the built PWA; null disables static serving. Default <repo>/dist. */
  distDir?: string | null;
  /** Fastify logger setting; default: pino at config.logLevel, in config.logFormat (logging.ts). */
  logger?: FastifyServerOptions['logger'];
  /** Trust X-Forwarded-* from a reverse proxy (request.ip, protocol); default TRUST_PROXY. */
  trustProxy?: boolean;
  /** Periodic jobs (default: the server's own, see jobs/scheduler.ts). */
  jobs?: Job[];
}

async function requireJsonContentType(request: FastifyRequest): Promise<void> {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw new HttpProblem(415, `Invalid Content-type (${type}), expected JSON data`);
  }
}

/** Names of the boolean properties of a querystring schema. */
function booleanQueryKeys(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)
    ?.properties;
  if (!properties) return [];
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'boolean')
    .map(([key]) => key);
}

/**
 * Python clients send booleans as `True`/`False`: lower-case them before validation (which
 * coerces only `true`/`false`), so every spelling works and anything else is still a 400.
 */
function lowercaseBooleans(keys: string[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return;
    for (const key of keys) {
      const value = query[key];
      if (typeof value === 'string' && /^(true|false)$/i.test(value)) {
        query[key] = value.toLowerCase();
      }
    }
  };
}

export function buildApp(options: BuildAppOptions): FastifyInstance {
  const { config, database, blobStore } = options;
  const now = options.now ?? (() => new Date());

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: options.trustProxy ?? config.trustProxy,
    return503OnClosing: true,
    // Path parameters carry project names (up to 255 bytes, percent-encoded) and the
    // tokens of emailed links; find-my-way's default of 100 characters would answer 414.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    ajv: { customOptions: AJV_CUSTOM_OPTIONS },
    schemaController: { compilersFactory: { buildValidator: partValidators() } },
    // Undecodable URLs and the like: the same problem shape as every other error.
    frameworkErrors: (error, _request, reply) => {
      applySecurityHeaders(reply, config.secureCookies);
      sendProblem(reply, error.statusCode ?? 400);
    },
  });

  const ctx: AppContext = {
    config,
    database,
    blobStore,
    now,
    mailer: options.mailer ?? createMailer(config, app.log, now),
    log: app.log,
    readCache: new ReadCache(database),
  };
  app.decorate('ctx', ctx);
  // Polling starts in main.ts (tests run due jobs themselves); closing the app stops it.
  const scheduler = new Scheduler(ctx, options.jobs ?? defaultJobs());
  app.decorate('scheduler', scheduler);
  app.addHook('onClose', async () => scheduler.stop());
  // Webhook messages: sent from the queue in the database (main.ts starts polling).
  const webhooks = new WebhookDispatcher(ctx);
  app.decorate('webhooks', webhooks);
  app.addHook('onClose', async () => webhooks.stop());
  // Changesets computing in the background finish before the database closes; so do the
  // whole copies being arranged (services/file-store/).
  app.addHook('onClose', async () => changesetWorkIdle(ctx));
  app.addHook('onClose', async () => {
    stopFileStoreWork(ctx);
    await fileStoreWorkIdle(ctx);
    stopFileStoreWork(ctx);
    await closeFileCache(ctx);
  });

  const routes = createRouteIndex();
  app.decorate('routeIndex', routes);
  app.addHook('onRoute', (route) => {
    routes.add(route.method, route.url);
    const booleans = booleanQueryKeys(route.schema?.querystring);
    if (booleans.length > 0) {
      const existing = route.preValidation;
      route.preValidation = [
        lowercaseBooleans(booleans),
        ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
      ];
    }
    // Routes with a JSON body schema refuse other (or missing) content types with 415.
    if (route.schema?.body) {
      const existing = route.preValidation;
      route.preValidation = [
        requireJsonContentType,
        ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
      ];
    }
  });

  // Only JSON bodies by default; a text/plain body is a 415 rather than a string.
  app.removeContentTypeParser('text/plain');

  app.register(errorsPlugin, { apiPrefixes: API_PREFIXES });
  app.register(securityHeadersPlugin);
  app.register(inputGuardPlugin);
  app.register(fastifyCookie, {
    secret: createHmac('sha256', config.secretKey).update('waymark/cookie').digest('base64url'),
  });
  app.register(csrfPlugin);
  app.register(maintenancePlugin);
  app.register(authPlugin);

  // Anyone may call these (what an anonymous caller may read is the services' check).
  app.register(instanceRoutes);
  app.register(publicAuthRoutes);
  app.register(oidcRoutes);
  app.register(publicProjectRoutes);
  app.register(historyRoutes);
  app.register(downloadRoutes);
  app.register(mapRoutes);
  app.register(exportRoutes);
  app.register(ogcRoutes);
  app.register(publicViewLinkRoutes);
  app.register(formRoutes);
  app.register(pullV2Routes);
  app.register(diagnosticLogRoutes);
  app.register(publicInvitationRoutes);
  app.register(timeTravelReadRoutes);
  // A signed-in user only: one requireLogin for the whole scope (plugins/auth.ts).
  app.register(
    signedIn(
      authRoutes,
      personalTokenRoutes,
      auditRoutes,
      userRoutes,
      workspaceRoutes,
      workspaceMemberRoutes,
      projectRoutes,
      accessRequestRoutes,
      collaboratorRoutes,
      pushRoutes,
      pushV2Routes,
      timeTravelWriteRoutes,
      viewLinkRoutes,
      editRoutes,
      webhookRoutes,
    ),
  );

  // The global workspace must be reachable: not named like a word of the route table.
  app.addHook('onReady', async () => {
    const words = shadowingWords(routes.list().map((route) => route.url));
    const problem = reservedWorkspaceNameError(config.globalWorkspace, words);
    if (problem) throw new ConfigError('GLOBAL_WORKSPACE', `GLOBAL_WORKSPACE ${problem}`);
  });

  const staticFiles = registerStaticFiles(
    app,
    options.distDir === undefined ? DEFAULT_DIST_DIR : options.distDir,
  );
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routes.allowedMethods(path);
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      if (request.method === 'OPTIONS') {
        return reply.code(204).header('allow', allowed.join(', ')).send();
      }
      throw new HttpProblem(405, undefined, { headers: { allow: allowed.join(', ') } });
    }
    if (!isApiPath(path, API_PREFIXES) && (await staticFiles.tryServe(request, reply))) {
      return reply;
    }
    throw new HttpProblem(404);
  });

  return app;
}
