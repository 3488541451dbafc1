/** Instance information: /app/init, /ping, /config, /alive (api-reference A.1, A.10). */
import type { FastifyPluginAsync } from 'fastify';
import { isMaintenance } from '../maintenance';
import { issueCsrfToken } from '../plugins/csrf';
import { BLACKLIST_DIRS, BLACKLIST_FILES, SERVICE_NAME, VERSION, versionParts } from '../version';
import { stringList } from './schemas';

const initResponse = {
  type: 'object',
  required: ['authenticated', 'superuser'],
  properties: { authenticated: { type: 'boolean' }, superuser: { type: 'boolean' } },
} as const;

const pingResponse = {
  type: 'object',
  properties: {
    service: { type: 'string' },
    status: { type: 'string' },
    base_url: { type: 'string' },
    endpoints: { type: 'object', additionalProperties: true },
    version: { type: 'string' },
    blacklist_dirs: stringList,
    blacklist_files: stringList,
    maintenance: { type: 'boolean' },
    subscriptions_enabled: { type: 'boolean' },
  },
} as const;

const configResponse = {
  type: 'object',
  properties: {
    docs_url: { type: 'string' },
    server_type: { type: 'string' },
    collect_statistics: { type: 'boolean' },
    user_self_registration: { type: 'boolean' },
    global_admin: { type: 'boolean' },
    global_read: { type: 'boolean' },
    global_write: { type: 'boolean' },
    enable_superadmin_assignment: { type: 'boolean' },
    diagnostic_logs_url: { type: 'string' },
    v2_push_enabled: { type: 'boolean' },
    v2_pull_enabled: { type: 'boolean' },
    blacklist_dirs: stringList,
    blacklist_files: stringList,
    version: { type: 'string' },
    major: { type: 'integer' },
    minor: { type: 'integer' },
    fix: { type: ['integer', 'null'] },
    server_configured: { type: 'boolean' },
    build_hash: { type: 'string' },
  },
} as const;

const aliveResponse = {
  type: 'object',
  properties: {
    processing_time_ms: { type: 'number' },
    maintenance: { type: 'boolean' },
  },
} as const;

const instanceRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.ctx;

  app.get('/app/init', { schema: { response: { 200: initResponse } } }, async (request, reply) => {
    const user = request.auth.user;
    reply.header('x-csrf-token', issueCsrfToken(request, reply));
    return { authenticated: user !== null, superuser: user?.isAdmin === true };
  });

  app.get('/ping', { schema: { response: { 200: pingResponse } } }, async () => ({
    service: SERVICE_NAME,
    status: 'online',
    base_url: 'v1',
    endpoints: {},
    version: VERSION,
    blacklist_dirs: [...BLACKLIST_DIRS],
    blacklist_files: [...BLACKLIST_FILES],
    maintenance: await isMaintenance(config.dataDir),
    subscriptions_enabled: false,
  }));

  app.get('/config', { schema: { response: { 200: configResponse } } }, async () => ({
    docs_url: config.docsUrl,
    server_type: 'ce',
    collect_statistics: false,
    user_self_registration: false,
    global_admin: config.globalAdmin,
    global_read: config.globalRead,
    global_write: config.globalWrite,
    enable_superadmin_assignment: true,
    diagnostic_logs_url: '',
    v2_push_enabled: true,
    v2_pull_enabled: true,
    blacklist_dirs: [...BLACKLIST_DIRS],
    blacklist_files: [...BLACKLIST_FILES],
    version: VERSION,
    ...versionParts(VERSION),
    server_configured: config.baseUrl !== '',
    build_hash: '',
  }));

  // Load-balancer health check (CSRF-exempt, allowed in maintenance).
  const alive = async () => {
    const started = process.hrtime.bigint();
    const maintenance = await isMaintenance(config.dataDir);
    return {
      processing_time_ms: Number(process.hrtime.bigint() - started) / 1e6,
      maintenance,
    };
  };
  app.get('/alive', { schema: { response: { 200: aliveResponse } } }, alive);
  app.post('/alive', { schema: { response: { 200: aliveResponse } } }, alive);
};

export default instanceRoutes;
