/** Instance information: /app/init, /ping, /config, /alive (api-reference A.1, A.10). */
import { OIDC_START_PATH } from '../services/oidc';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isMaintenance } from '../maintenance';
import { issueCsrfToken } from '../plugins/csrf';
import { BLACKLIST_DIRS, BLACKLIST_FILES, SERVICE_NAME, VERSION, versionParts } from '../version';
import { AliveSchema, InitSchema, InstanceConfigSchema, PingSchema } from '../schemas/instance';

const instanceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { config } = app.ctx;

  app.get('/app/init', { schema: { response: { 200: InitSchema } } }, async (request, reply) => {
    const user = request.auth.user;
    reply.header('x-csrf-token', issueCsrfToken(request, reply));
    return { authenticated: user !== null, superuser: user?.isAdmin === true };
  });

  app.get('/ping', { schema: { response: { 200: PingSchema } } }, async () => ({
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

  app.get('/config', { schema: { response: { 200: InstanceConfigSchema } } }, async () => ({
    docs_url: config.docsUrl,
    ...(config.communityUrl === null ? {} : { community_url: config.communityUrl }),
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
    workspace_creation: config.workspaceCreation,
    blacklist_dirs: [...BLACKLIST_DIRS],
    blacklist_files: [...BLACKLIST_FILES],
    version: VERSION,
    ...versionParts(VERSION),
    server_configured: config.baseUrl !== '',
    build_hash: '',
    ...(config.basemap === null ? {} : { basemap: { ...config.basemap } }),
    ...(config.oidc === null
      ? {}
      : { oidc: { label: config.oidc.buttonLabel, start_url: OIDC_START_PATH } }),
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
  app.get('/alive', { schema: { response: { 200: AliveSchema } } }, alive);
  app.post('/alive', { schema: { response: { 200: AliveSchema } } }, alive);
};

export default instanceRoutes;
