import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/sequencer.js';

/**
 * The long suite: capabilities `npm test` shows at smaller sizes, here at full scale (copies of
 * 2,041 nodes and of the largest nodes, the deepest trees a strategy accepts, pages of subtrees of
 * 11,110 nodes), moves and writes from many clients at once through two processes (rounds of 80
 * concurrent reparents, creates and deletes too), processes dying at every
 * step of a job (a worker process killed mid-job too), the rest of `npm start`'s life (its
 * production build, its DynamoDB Local dying, stops before it is ready, its class archive), the
 * example app in a browser, the deployable stack synthesized and the offline commands of
 * docs/deploy.md, and the packed package installed and run.
 */
const LONG = [
  'test/e2e/startEdges.test.ts',
  'test/e2e/deployPage.test.ts',
  'test/offline/stack.test.ts',
  'test/e2e/package.test.ts',
  'test/e2e/example.browser.test.ts',
  'test/e2e/explorer.browser.test.ts',
  'test/integration/http/quickStart.test.ts',
  'test/integration/contract/copyRestoreScale.test.ts',
  'test/integration/contract/depthHighest.test.ts',
  'test/integration/contract/pageCosts.test.ts',
  'test/integration/deletes/deleteCrash.test.ts',
  'test/integration/moves/churn.test.ts',
  'test/integration/moves/distinctMoves.test.ts',
  'test/integration/robustness/concurrency.test.ts',
  'test/integration/robustness/crash.test.ts',
  'test/integration/jobs/workerTakeover.test.ts',
  'test/integration/imports/import.test.ts',
];

const SIZE = ['test/integration/maintenance/verifySize.test.ts'];

const shared = {
  globalSetup: ['test/support/globalSetup.ts'],
  setupFiles: ['reflect-metadata'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
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
    // Three test files at once on two cores: a third of the time a file waits (on jobs' leases,
    // on processes it starts, on timers), and the third one uses that time. `npm test` runs four:
    // its files leave a tenth of the two cores idle with three (907 s of CPU in 555 s), and four
    // finish it a tenth sooner for the same CPU (505 s); the long suites' many processes keep three.
    maxWorkers: 3,
    // Test files of a worker share its module cache (each still has its own tables and servers):
    // importing the server's modules once per worker instead of once per file saves a sixth of
    // the suite's time.
    isolate: false,
    // The longest files first, across both projects (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // `npm test`: every behaviour, under every strategy, at the sizes that show it.
        extends: true,
        test: {
          ...shared,
          name: 'all',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...LONG, ...SIZE],
        },
      },
      // `npm run test:long` (CI runs it after `npm test`): the same at full scale, and crashes of real processes.
      { extends: true, test: { ...shared, name: 'long', include: LONG } },
      // `npm run test:size`, on demand: maintenance on a table of a real directory tree's size.
      { extends: true, test: { ...shared, name: 'size', include: SIZE } },
      {
        // The contract suites of moves and deletes and the model suite again (the concurrency suite
        // emulates AWS's conflicts in the long project), with transactions of at most 10 items:
        // moves and deletes of a few nodes then run as jobs,
        // under every strategy. Reads, creates and updates do not depend on the transaction size;
        // depth limits are checked before a move chooses a transaction or a job; the exact costs
        // are those of the default budget: those suites run once.
        extends: true,
        test: {
          ...shared,
          name: 'small-transactions',
          include: [
            'test/integration/contract/reparent.test.ts',
            'test/integration/contract/delete.test.ts',
            'test/integration/contract/processes.test.ts',
            'test/integration/robustness/model.test.ts',
          ],
          // And with AWS's transaction conflicts (test/support/transactionConflicts.ts): a
          // transaction naming an item that another in flight names is cancelled, and retried.
          env: {
            TEST_TRANSACTION_ITEMS: '10',
            TEST_TRANSACTION_CONFLICTS: 'true',
            MODEL_RUNS: '3',
          },
        },
      },
    ],
  },
});
