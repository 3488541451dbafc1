import { defineConfig } from 'drizzle-kit';

// Only used to generate migrations (`npm run db:generate`); the server applies them with its
// own runner (server/src/db/migrate.ts), so no database credentials are needed here.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/src/db/schema.ts',
  out: './server/src/db/migrations',
  breakpoints: true,
});
