import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // e2e tests spawn real processes in pseudo-terminals; two cores, so keep the pool small.
    maxWorkers: 2,
  },
});
