/**
 * Read-only mode (api-reference §5): while DATA_DIR/MAINTENANCE exists, mutations are
 * refused with 503, except sign-in, sign-out (a POST since it needs the CSRF token; it
 * writes no more than sign-in does), /project/by_names lookups and /alive.
 * Registered after the CSRF plugin, so CSRF is checked first.
 */
import fp from 'fastify-plugin';
import { HttpProblem, MAINTENANCE_TEXT } from '../errors';
import { isMaintenance } from '../maintenance';
import { MUTATING_METHODS } from './csrf';

const EXEMPT_PARTS = ['/project/by_names', '/auth/login', '/auth/logout', '/alive'];

export default fp(
  async (app) => {
    const { config } = app.ctx;
    app.addHook('onRequest', async (request) => {
      if (!MUTATING_METHODS.has(request.method) || request.is404) return;
      const path = request.url.split('?')[0]!;
      if (EXEMPT_PARTS.some((part) => path.includes(part))) return;
      if (await isMaintenance(config.dataDir)) throw new HttpProblem(503, MAINTENANCE_TEXT);
    });
  },
  { name: 'waymark-maintenance' },
);
