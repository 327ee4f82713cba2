import { defineConfig } from 'vitest/config';

const shared = {
  globalSetup: ['test/support/globalSetup.ts'],
  setupFiles: ['reflect-metadata'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // The AWS SDK's own switch for its warning that releases after January 2027 need Node 22 (the
  // lockfile pins the SDK); the npm scripts set it too.
  env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
};

export default defineConfig({
  resolve: {
    // Load graphql the way Node does (its CommonJS entry), so that our code and the libraries
    // loaded natively (type-graphql, Apollo) share one graphql instance.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { ...shared, name: 'all', include: ['src/**/*.test.ts', 'test/**/*.test.ts'] } },
      {
        // The contract, model and concurrency suites again, with transactions of at most 10
        // items: moves and deletes of a few nodes then run as jobs, under every strategy. The
        // exact costs are those of the default budget, so costs.test.ts runs once.
        extends: true,
        test: {
          ...shared,
          name: 'small-transactions',
          include: ['test/integration/contract/*.test.ts', 'test/integration/model.test.ts', 'test/integration/concurrency.test.ts'],
          // Depth limits are checked before a move chooses a transaction or a job: once is enough.
          exclude: [
            'test/integration/contract/costs.test.ts',
            'test/integration/contract/budget.test.ts',
            'test/integration/contract/depth.test.ts',
          ],
          env: { ...shared.env, TEST_TRANSACTION_ITEMS: '10', MODEL_RUNS: '10', CONCURRENCY_ROUNDS: '1' },
        },
      },
    ],
  },
});
