import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: ['test/e2e/**', 'test/package/**'] },
      },
      {
        extends: true,
        // The real bin in a pseudo-terminal reacts to timing (paste bursts are 8 ms apart): one
        // e2e file at a time, so two of them never compete for the machine's two cores. The package
        // test (npm pack, then a global install of the tarball) waits in the same line.
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts', 'test/package/**/*.test.ts'], fileParallelism: false },
      },
    ],
  },
});
