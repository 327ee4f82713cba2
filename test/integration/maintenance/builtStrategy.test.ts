/**
 * The strategy the table records: the first start records it, a start (or a tree command that
 * reads or writes nodes) under another TREE_STRATEGY is refused with exit code 2's ConfigError,
 * naming both and the reindex to run; a reindex records its target; a table of an earlier
 * version gets the strategy its items show; a running reindex lets the old strategy start and
 * makes its target wait. In process, on the test run's DynamoDB Local.
 */
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runTree } from '../../../src/cli/treeProgram.js';
import { ConfigError, loadConfig } from '../../../src/config.js';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { readStrategyRecords, strategyRecordKey } from '../../../src/dynamodb/strategyRecord.js';
import { ensureTable } from '../../../src/dynamodb/table.js';
import { createStore } from '../../../src/storage/store/createStore.js';
import { STRATEGY_NAMES, type StrategyName } from '../../../src/storage/strategies/strategies.js';
import type { Job, TreeAdmin } from '../../../src/storage/treeStore.js';
import { capturedLogger } from '../../support/capturedLogger.js';
import { loadTree } from '../../support/loadTree.js';
import { startTestServer, uniqueTable } from '../../support/server.js';
import { DAY_MS } from '../../../src/durations.js';

let dynamo: Dynamo;
beforeAll(() => {
  dynamo = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
});
afterAll(() => dynamo?.client.destroy());

/** A store on `table` under `strategy`, as the command line makes one. */
const storeOn = (table: string, strategy: StrategyName): TreeAdmin =>
  createStore({
    doc: dynamo.doc,
    table,
    strategy,
    maxTreeDepth: 64,
    cursorSecret: 'test',
    jobLeaseMs: 1000,
    transactionItems: 100,
    changeRetentionMs: DAY_MS,
    undoRetentionMs: 7 * DAY_MS,
  });

/** A reindex run to its end by a store with its sweep running, as `tree reindex` does. */
async function reindex(admin: TreeAdmin, target: StrategyName): Promise<Job> {
  const jobs = admin.startJobs();
  try {
    const { id } = await admin.reindex(target);
    for (;;) {
      const job = (await admin.store.getJobs([id])).get(id);
      if (job && job.status !== 'RUNNING') return job;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await jobs.stop();
  }
}

/** What a start on `table` under `strategy` throws (undefined: it started, and is closed again). */
async function startRefusal(table: string, strategy: StrategyName): Promise<unknown> {
  try {
    const server = await startTestServer({ table, strategy, verifyOnClose: false });
    await server.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

const TREES = [{ id: 'r', children: [{ id: 'c', children: [{ id: 'g' }] }] }];

describe('the strategy recorded in the table', () => {
  it('is recorded at the first start; another TREE_STRATEGY is refused, naming both and the reindex', async () => {
    const table = uniqueTable();
    const first = await startTestServer({ table, strategy: 'path' });
    await first.close();
    expect(await readStrategyRecords(dynamo.doc, table)).toEqual([
      { tenant: null, strategy: 'path', by: 'start', at: expect.stringMatching(/^\d{4}-/) },
    ]);
    expect(await startRefusal(table, 'closure')).toEqual(
      new ConfigError([
        `TREE_STRATEGY is closure, but the trees of table ${table} are built for path (recorded in the table): ` +
          'run `npm run tree -- reindex --to closure` to rebuild them for closure, then start again; ' +
          'or set TREE_STRATEGY=path',
      ]),
    );
    expect(await startRefusal(table, 'path')).toBeUndefined();
  });

  it('follows a reindex: its target starts, the strategy it left is refused', async () => {
    const table = uniqueTable();
    await (await startTestServer({ table, strategy: 'adjacency' })).close();
    expect(await reindex(storeOn(table, 'adjacency'), 'nested-set')).toMatchObject({ status: 'DONE' });
    expect(await readStrategyRecords(dynamo.doc, table)).toEqual([
      { tenant: null, strategy: 'nested-set', by: 'reindex', at: expect.any(String) },
    ]);
    expect(await startRefusal(table, 'nested-set')).toBeUndefined();
    expect(await startRefusal(table, 'adjacency')).toMatchObject({
      problems: [expect.stringMatching(/^TREE_STRATEGY is adjacency, but .* are built for nested-set /)],
    });
  });

  it("keeps a record per tenant: a tenant's reindex is checked too, with the --tenant to give", async () => {
    const table = uniqueTable();
    await (await startTestServer({ table, strategy: 'path' })).close();
    await reindex(storeOn(table, 'path').forTenant('acme'), 'closure');
    expect((await readStrategyRecords(dynamo.doc, table)).map(({ tenant, strategy }) => [tenant, strategy])).toEqual([
      [null, 'path'],
      ['acme', 'closure'],
    ]);
    expect(await startRefusal(table, 'path')).toEqual(
      new ConfigError([
        `TREE_STRATEGY is path, but the trees of tenant acme in table ${table} are built for closure ` +
          '(recorded in the table): run `npm run tree -- reindex --to path --tenant acme` to rebuild them for ' +
          'path, then start again; or set TREE_STRATEGY=closure',
      ]),
    );
    expect(await startRefusal(table, 'closure')).toMatchObject({
      problems: [
        expect.stringMatching(/^TREE_STRATEGY is closure, but the trees of table t_[\w-]+ are built for path/),
      ],
    });
  });

  describe('while a reindex runs', () => {
    const table = uniqueTable();
    const jobId = '000000000-running';

    beforeAll(async () => {
      await (await startTestServer({ table, strategy: 'path' })).close();
      // A reindex to closure, running in another process that holds its lease (as reindexLock.ts
      // and jobRecord.ts write them): no sweep here takes it over.
      await dynamo.doc.send(
        new PutCommand({
          TableName: table,
          Item: { pk: 'JOBS', sk: 'OPEN', reindex: jobId, reindexSince: Date.now(), projection: 'closure' },
        }),
      );
      await dynamo.doc.send(
        new PutCommand({
          TableName: table,
          Item: {
            pk: 'JOBS',
            sk: `JOB#${jobId}`,
            id: jobId,
            kind: 'REINDEX',
            status: 'RUNNING',
            done: 3,
            total: 7,
            startedAt: new Date().toISOString(),
            nodeId: null,
            target: 'closure',
            after: 'c',
            leaseToken: 'another-process',
            leaseExpiresAt: Date.now() + 600_000,
          },
        }),
      );
    });

    it('starts the strategy it leaves, with a warning that names it', async () => {
      const { logger, lines } = capturedLogger();
      const server = await startTestServer({ table, strategy: 'path', logger, verifyOnClose: false });
      await server.close();
      expect(lines.filter((line) => line.level === 40).map((line) => line.msg)).toEqual([
        `a reindex of the trees of table ${table} to closure is running (job ${jobId}): once it is done, ` +
          'start with TREE_STRATEGY=closure; processes of path are refused from then on',
      ]);
    });

    it('refuses its target until it is done, naming the job to wait for', async () => {
      expect(await startRefusal(table, 'closure')).toEqual(
        new ConfigError([
          `TREE_STRATEGY is closure, and the reindex of the trees of table ${table} to it is running ` +
            `(job ${jobId}, 3 of 7 nodes): wait for its end (\`npm run tree -- jobs --wait ${jobId}\`), ` +
            'then start again; until then, they are built for path',
        ]),
      );
    });
  });

  describe('in a table of an earlier version, with trees and no record', () => {
    it.each(STRATEGY_NAMES)('finds %s in the items of a root and its child', async (strategy) => {
      const table = uniqueTable();
      await ensureTable(dynamo.client, table);
      await loadTree(dynamo.doc, table, strategy, TREES);
      const other = STRATEGY_NAMES.find((name) => name !== strategy)!;
      expect(await storeOn(table, other).builtStrategies()).toEqual([{ tenant: null, strategy, by: 'found' }]);
    });

    it('tells path from closure with roots alone', async () => {
      for (const strategy of ['path', 'closure'] as const) {
        const table = uniqueTable();
        await ensureTable(dynamo.client, table);
        await loadTree(dynamo.doc, table, strategy, [{ id: 'alone' }]);
        expect(await storeOn(table, 'adjacency').builtStrategies()).toEqual([{ tenant: null, strategy, by: 'found' }]);
      }
    });

    it('takes the projection a reindex named; records the configured strategy on a table without trees', async () => {
      const table = uniqueTable();
      await ensureTable(dynamo.client, table);
      expect(await storeOn(table, 'closure').builtStrategies()).toEqual([
        { tenant: null, strategy: 'closure', by: 'start' },
      ]);
      await dynamo.doc.send(new DeleteCommand({ TableName: table, Key: strategyRecordKey(null) }));
      await dynamo.doc.send(new PutCommand({ TableName: table, Item: { pk: 'JOBS', sk: 'OPEN', projection: 'path' } }));
      expect(await storeOn(table, 'closure').builtStrategies()).toEqual([
        { tenant: null, strategy: 'path', by: 'found' },
      ]);
    });
  });

  it('refuses a tree command that reads nodes under another strategy, with exit code 2', async () => {
    const table = uniqueTable();
    await (await startTestServer({ table, strategy: 'path' })).close();
    const config = { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), DYNAMODB_TABLE: table, TREE_STRATEGY: 'closure' };
    expect(loadConfig(config).strategy).toBe('closure');
    const saved = Object.fromEntries(Object.keys(config).map((name) => [name, process.env[name]]));
    Object.assign(process.env, config);
    let err = '';
    try {
      const code = await runTree(['export'], { out: () => undefined, err: (text) => (err += text) });
      expect(code).toBe(2);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(err).toBe(
      'invalid configuration:\n' +
        `  - TREE_STRATEGY is closure, but the trees of table ${table} are built for path (recorded in the table): ` +
        'run `npm run tree -- reindex --to closure` to rebuild them for closure, then start again; ' +
        'or set TREE_STRATEGY=path\n',
    );
  });
});
