import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Load graphql the way Node does (its CommonJS entry), so that our code and the libraries
    // loaded natively (type-graphql, Apollo) share one graphql instance.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    setupFiles: ['reflect-metadata'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
