import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { aliases } from './aliases.ts';

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        resolve: { alias: aliases },
        test: {
          name: 'unit',
          environment: 'jsdom',
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['src/test/setup.ts'],
          // Rendering the whole app in jsdom takes seconds on a busy 2-core machine.
          testTimeout: 15_000,
        },
      },
      {
        resolve: { alias: aliases },
        test: {
          name: 'server',
          environment: 'node',
          include: [
            'tests/server/**/*.test.ts',
            'server/src/**/*.test.ts',
            'tests/lint/**/*.test.ts',
          ],
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
