/**
 * `tree verify` and `tree reindex` on real tables: a table built by the server under one
 * strategy is rebuilt in place for another, and a server on the new strategy gives the same
 * answers; corrupted projections are found (naming the nodes) and repaired; an interrupted
 * reindex resumes; and the command line reports and exits as documented.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { STRATEGY_NAMES, strategyNamed, type StrategyName } from '../../../src/storage/strategies/strategies.js';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { scanTable } from '../../../src/dynamodb/scan.js';
import { closureSk } from '../../../src/storage/strategies/closure/closureKeys.js';
import { kindOf } from '../../../src/storage/maintenance/kindOf.js';
import { createStore } from '../../../src/storage/store/createStore.js';
import type { Job } from '../../../src/storage/treeStore.js';
import { jobKey } from '../../../src/storage/engine/jobs/jobRecord.js';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import type { Problem } from '../../../src/storage/maintenance/verify.js';
import { verifyTable } from '../../../src/storage/maintenance/verifyTable.js';
import type { ScanOptions, ScanWait } from '../../../src/dynamodb/scan.js';
import { scanWaitMessage } from '../../../src/cli/verifyCommand.js';
import { levelKey } from '../../../src/storage/strategies/path/levelKeys.js';
import { pauseTransaction } from '../../support/pause.js';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { fullTree, okData, specIds, type TreeSpec } from '../../support/tree.js';
import { DAY_MS } from '../../../src/durations.js';

const MAX_DEPTH = 64;
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let dynamo: Dynamo;
beforeAll(() => {
  dynamo = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
});
afterAll(() => dynamo?.client.destroy());

const REPARENT = `mutation Move($id: ID!, $newParentId: ID) { reparent(id: $id, newParentId: $newParentId) { id } }`;

/** Builds `trees` with a server on `strategy`, applies `moves`, and closes it (healthy). */
async function builtTable(
  strategy: StrategyName,
  trees: TreeSpec[],
  moves: Array<[id: string, newParentId: string | null]> = [],
): Promise<string> {
  const server = await startTestServer({ strategy });
  try {
    await loadInto(server, trees);
    for (const [id, newParentId] of moves) okData(await server.gql(REPARENT, { id, newParentId }));
  } finally {
    await server.close();
  }
  return server.table;
}

const verify = async (table: string, strategy: StrategyName): Promise<Problem[]> =>
  (await verifyTable(dynamo.doc, table, strategy, MAX_DEPTH)).problems;

/** The ids a list of problems names, sorted. */
const named = (problems: Problem[]): string[] => [...new Set(problems.map((p) => p.nodeId))].sort();

/** A store on `table` for the test's client, as a process running jobs would have. */
const storeOn = (table: string, doc = dynamo.doc, transactionItems = 100) =>
  createStore({
    doc,
    table,
    strategy: 'adjacency',
    maxTreeDepth: MAX_DEPTH,
    cursorSecret: 'test',
    jobLeaseMs: 1000,
    transactionItems,
    changeRetentionMs: DAY_MS,
    undoRetentionMs: 7 * DAY_MS,
  });

/** Polls a job until it is no longer running. */
async function finished(store: ReturnType<typeof storeOn>, id: string): Promise<Job> {
  for (;;) {
    const job = (await store.store.getJobs([id])).get(id);
    if (job && job.status !== 'RUNNING') return job;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Runs a reindex job to its end in a process of its own (a store with its sweep running). */
async function reindex(table: string, target: StrategyName, doc = dynamo.doc, transactionItems = 100): Promise<Job> {
  const store = storeOn(table, doc, transactionItems);
  const jobs = store.startJobs();
  try {
    return await finished(store, (await store.reindex(target)).id);
  } finally {
    await jobs.stop();
  }
}

/** A client of the test's DynamoDB whose `nth` TransactWriteItems fails (failTransaction). */
const failingAt = (nth: number) =>
  createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', middleware: failTransaction(nth) });

/** A fault middleware: the `nth` TransactWriteItems fails as if the network went down. */
function failTransaction(nth: number): DynamoOptions['middleware'] {
  let seen = 0;
  return (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (String(context.commandName).startsWith('TransactWrite') && ++seen === nth)
          throw new Error('network down (test)');
        return next(args);
      },
      { step: 'initialize', name: 'failTransaction' },
    );
}

/** Items by kind; the path strategy's items are its level items, the nested set's its range items. */
async function countKinds(table: string) {
  const counts = { node: 0, edge: 0, level: 0, closure: 0, range: 0, job: 0, other: 0, withPath: 0 };
  for (const item of await scanTable(dynamo.doc, table)) {
    const kind = kindOf(item);
    // The trees' change logs are no part of the tree's items: a reindex leaves them as they are.
    if (kind === 'change') continue;
    counts[
      ((STRATEGY_NAMES as readonly string[]).includes(kind)
        ? strategyNamed(kind as StrategyName).itemName
        : kind) as Exclude<keyof typeof counts, 'withPath'>
    ]++;
    if (kindOf(item) === 'node' && 'path' in item) counts.withPath++;
  }
  return counts;
}

interface Answer {
  depth: number;
  rootId: string;
  ancestors: string[];
  /** Descendants (self excluded), as sorted sets per absolute depth. */
  descendants: Record<number, string[]>;
  /** descendants(minDepth: 2, maxDepth: 3), sorted. */
  window: string[];
}

const ANSWERS = `query($ids: [ID!]!) { nodes(ids: $ids) {
  id depth rootId ancestors { id }
  descendants(first: 1000) { nodes { id depth } pageInfo { hasNextPage } }
  window: descendants(minDepth: 2, maxDepth: 3, first: 1000) { nodes { id } pageInfo { hasNextPage } }
} }`;

interface Connection<T> {
  nodes: T[];
  pageInfo: { hasNextPage: boolean };
}

/** What the server answers for ancestors and descendants of every node of `ids`. */
async function answers(server: TestServer, ids: string[]): Promise<Record<string, Answer>> {
  const data = okData<{
    nodes: Array<{
      id: string;
      depth: number;
      rootId: string;
      ancestors: Array<{ id: string }>;
      descendants: Connection<{ id: string; depth: number }>;
      window: Connection<{ id: string }>;
    } | null>;
  }>(await server.gql(ANSWERS, { ids }));
  const result: Record<string, Answer> = {};
  data.nodes.forEach((node, i) => {
    if (!node) throw new Error(`node ${ids[i]} is missing`);
    expect(node.descendants.pageInfo.hasNextPage).toBe(false);
    expect(node.window.pageInfo.hasNextPage).toBe(false);
    const descendants: Record<number, string[]> = {};
    for (const d of node.descendants.nodes) (descendants[d.depth] ??= []).push(d.id);
    for (const list of Object.values(descendants)) list.sort();
    result[node.id] = {
      depth: node.depth,
      rootId: node.rootId,
      ancestors: node.ancestors.map((a) => a.id),
      descendants,
      window: node.window.nodes.map((n) => n.id).sort(),
    };
  });
  return result;
}

async function answersOn(table: string, strategy: StrategyName, ids: string[]): Promise<Record<string, Answer>> {
  const server = await startTestServer({ strategy, table });
  try {
    return await answers(server, ids);
  } finally {
    await server.close();
  }
}

describe('reindex in place, adjacency → path → closure → nested-set → adjacency', () => {
  // 22 + 9 nodes (over one reindex batch of 25), moved within and across trees.
  const trees = [fullTree('m', [3, 2, 2]), fullTree('n', [2, 3])];
  const ids = trees.flatMap(specIds).sort();
  const moves: Array<[string, string | null]> = [
    ['m.0.1', 'n.1'],
    ['n.0', 'm.2.1.0'],
    ['m.1.0', null],
    ['m.2', 'm.0.0.1'],
  ];
  let table: string;
  let truth: Record<string, Answer>;

  beforeAll(async () => {
    const server = await startTestServer({ strategy: 'adjacency', verifyOnClose: false });
    table = server.table;
    try {
      await loadInto(server, trees);
      for (const [id, newParentId] of moves) okData(await server.gql(REPARENT, { id, newParentId }));
      truth = await answers(server, ids);
    } finally {
      await server.close();
    }
  });

  it('starts from a healthy adjacency table with the moves applied', async () => {
    expect(await verify(table, 'adjacency')).toEqual([]);
    expect(truth['m.2.1.0']?.ancestors).toEqual(['m', 'm.0', 'm.0.0', 'm.0.0.1', 'm.2', 'm.2.1']);
    expect(truth['n.0.2']?.ancestors).toEqual(['m', 'm.0', 'm.0.0', 'm.0.0.1', 'm.2', 'm.2.1', 'm.2.1.0', 'n.0']);
    expect(truth['m.0.1.1']).toMatchObject({ rootId: 'n', depth: 3, ancestors: ['n', 'n.1', 'm.0.1'] });
    expect(truth['m.1.0']).toMatchObject({ rootId: 'm.1.0', depth: 0, ancestors: [] });
    expect(truth['m']?.descendants[8]).toEqual(['n.0.0', 'n.0.1', 'n.0.2']);
  });

  it('verify for path, before the reindex, names every node missing its path and level item', async () => {
    const problems = await verify(table, 'path');
    const expected = ids.flatMap((id) => {
      const chain = truth[id]!.ancestors;
      const key = levelKey(chain, id);
      return [
        { nodeId: id, problem: `stored path null, expected ${JSON.stringify(chain)}` },
        { nodeId: id, problem: `missing projection item ${key.pk} ${key.sk}` },
      ];
    });
    const order = (list: Problem[]) =>
      [...list].sort((a, b) => `${a.nodeId} ${a.problem}`.localeCompare(`${b.nodeId} ${b.problem}`));
    expect(order(problems)).toEqual(order(expected));
  });

  it('reindexes to path as a job (in chunks): verify finds nothing, and a path server answers the same', async () => {
    const job = await reindex(table, 'path', dynamo.doc, 10);
    expect(job).toMatchObject({ kind: 'REINDEX', status: 'DONE', done: ids.length, total: ids.length, nodeId: null });
    expect((await storeOn(table).store.listJobs({ first: 10 })).edges.map((e) => e.node)).toEqual([job]);
    expect(await verify(table, 'path')).toEqual([]);
    expect(await verify(table, 'adjacency')).toEqual([]);
    expect(await countKinds(table)).toEqual({
      node: ids.length,
      edge: ids.length,
      level: ids.length,
      closure: 0,
      range: 0,
      // The summary of the open jobs, and each reindex's record.
      job: 2,
      // The strategy the table records (STRATEGIES).
      other: 1,
      withPath: ids.length,
    });
    expect(await answersOn(table, 'path', ids)).toEqual(truth);
  });

  it('reindexes to closure: verify finds nothing, and a closure server answers the same', async () => {
    expect(await reindex(table, 'closure')).toMatchObject({ status: 'DONE', done: ids.length, total: ids.length });
    expect(await verify(table, 'closure')).toEqual([]);
    const rows = ids.reduce((sum, id) => sum + truth[id]!.depth, 0);
    expect(await countKinds(table)).toEqual({
      node: ids.length,
      edge: ids.length,
      level: 0,
      closure: rows,
      range: 0,
      job: 3,
      // The strategy the table records (STRATEGIES).
      other: 1,
      withPath: ids.length,
    });
    expect(await answersOn(table, 'closure', ids)).toEqual(truth);
  });

  it('reindexes to nested-set: verify finds nothing, a nested-set server answers the same', async () => {
    expect(await verify(table, 'nested-set')).not.toEqual([]);
    expect(await reindex(table, 'nested-set', dynamo.doc, 10)).toMatchObject({
      status: 'DONE',
      done: ids.length,
      total: ids.length,
    });
    expect(await verify(table, 'nested-set')).toEqual([]);
    // A range item per node but the roots (m, n, and m.1.0, moved to the top).
    expect(await countKinds(table)).toEqual({
      node: ids.length,
      edge: ids.length,
      level: 0,
      closure: 0,
      range: ids.length - 3,
      job: 4,
      // The strategy the table records (STRATEGIES).
      other: 1,
      withPath: ids.length,
    });
    expect(await answersOn(table, 'nested-set', ids)).toEqual(truth);
    const server = await startTestServer({ strategy: 'nested-set', table });
    try {
      // Read from the range items, and (with a depth bound) from a walk of the truth's edges.
      const preorder = async (id: string, maxDepth: number | null) =>
        okData(
          await server.gql(
            'query($id: ID!, $maxDepth: Int) { node(id: $id) { ' +
              'descendants(maxDepth: $maxDepth, first: 1000, order: PREORDER) { nodes { id } } } }',
            { id, maxDepth },
          ),
        ).node.descendants.nodes.map((n: { id: string }) => n.id);
      for (const id of ['m', 'n', 'm.0.0', 'm.2.1']) {
        const fromRange = await preorder(id, null);
        expect(fromRange).toEqual(await preorder(id, MAX_DEPTH));
        expect([...fromRange].sort()).toEqual(Object.values(truth[id]!.descendants).flat().sort());
      }
    } finally {
      await server.close();
    }
  });

  it('reindexes back to adjacency: level items, closure rows and range items are gone', async () => {
    expect(await reindex(table, 'adjacency')).toMatchObject({ status: 'DONE', done: ids.length, total: ids.length });
    expect(await verify(table, 'adjacency')).toEqual([]);
    expect(await countKinds(table)).toEqual({
      node: ids.length,
      edge: ids.length,
      level: 0,
      closure: 0,
      range: 0,
      job: 5,
      // The strategy the table records (STRATEGIES).
      other: 1,
      withPath: 0,
    });
  });
});

describe('corrupted projections', () => {
  // p ── p.0 ── p.0.0 ── p.0.0.{0,1}      after the move, p.1.0 and its children sit under p.0.0
  //   │      └─ p.0.1 ── ...
  //   └─ p.1 ── p.1.0 ── ...
  //          └─ p.1.1 ── ...
  const tree = fullTree('p', [2, 2, 2]);
  const moves: Array<[string, string | null]> = [['p.1.0', 'p.0.0']];

  it('path: a deleted level item and a wrong stored path are reported by node, and reindex repairs them', async () => {
    const table = await builtTable('path', [tree], moves);
    await dynamo.doc.send(new DeleteCommand({ TableName: table, Key: levelKey(['p', 'p.0'], 'p.0.1') }));
    await dynamo.doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: 'N#p.1.0.1', sk: 'NODE' },
        UpdateExpression: 'SET #path = :path',
        ExpressionAttributeNames: { '#path': 'path' },
        ExpressionAttributeValues: { ':path': ['p', 'p.1', 'p.1.0'] },
      }),
    );
    const problems = await verify(table, 'path');
    const lost = levelKey(['p', 'p.0'], 'p.0.1');
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { nodeId: 'p.0.1', problem: `missing projection item ${lost.pk} ${lost.sk}` },
        { nodeId: 'p.1.0.1', problem: 'stored path ["p","p.1","p.1.0"], expected ["p","p.0","p.0.0","p.1.0"]' },
      ]),
    );
    expect(await reindex(table, 'path')).toMatchObject({ status: 'DONE' });
    expect(await verify(table, 'path')).toEqual([]);
  });

  it('path: a stray level item is reported by node, and reindex removes it', async () => {
    const table = await builtTable('path', [tree], moves);
    // p.1.0's level item from before its move, left behind.
    const old = levelKey(['p', 'p.1'], 'p.1.0');
    await dynamo.doc.send(new PutCommand({ TableName: table, Item: { ...old, id: 'p.1.0', path: ['p', 'p.1'] } }));
    expect(await verify(table, 'path')).toEqual([{ nodeId: 'p.1.0', problem: `stray level item ${old.pk} ${old.sk}` }]);
    await reindex(table, 'path');
    expect(await verify(table, 'path')).toEqual([]);
  });

  it('closure: a deleted row and a stray row are reported by node, and reindex repairs them', async () => {
    const table = await builtTable('closure', [tree], moves);
    await dynamo.doc.send(new DeleteCommand({ TableName: table, Key: { pk: 'N#p', sk: closureSk(3, 'p.0.0.1') } }));
    // p.1.1.0's row under p.1.0, as if it had once been there.
    await dynamo.doc.send(
      new PutCommand({ TableName: table, Item: { pk: 'N#p.1.0', sk: closureSk(1, 'p.1.1.0'), id: 'p.1.1.0' } }),
    );
    const problems = await verify(table, 'closure');
    expect(named(problems)).toEqual(['p.0.0.1', 'p.1.1.0']);
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(
      expect.arrayContaining([
        { nodeId: 'p.0.0.1', problem: 'missing projection item N#p D#003#p.0.0.1' },
        { nodeId: 'p.1.1.0', problem: 'stray closure item N#p.1.0 D#001#p.1.1.0' },
      ]),
    );
    await reindex(table, 'closure');
    expect(await verify(table, 'closure')).toEqual([]);
  });
});

describe('a broken truth', () => {
  it('fails the reindex job (no retry for ever), writing nothing, and verify names the cycle', async () => {
    const tree = fullTree('x', [2, 2]);
    const table = await builtTable('adjacency', [tree]);
    // x.0 under its own child: a cycle no mutation can make.
    await dynamo.doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: 'N#x.0', sk: 'NODE' },
        UpdateExpression: 'SET parentId = :p',
        ExpressionAttributeValues: { ':p': 'x.0.1' },
      }),
    );
    expect(await reindex(table, 'path')).toMatchObject({ kind: 'REINDEX', status: 'FAILED', done: 0 });
    expect(await countKinds(table)).toMatchObject({ level: 0, withPath: 0 });
    expect((await verify(table, 'adjacency')).map((p) => p.problem).join('\n')).toMatch(/cycle/);
  });
});

describe('an interrupted reindex', () => {
  // 31 nodes, placed in chunks of 10 items per transaction (the fence one of them).
  const tree = fullTree('q', [5, 5]);
  const ids = specIds(tree).sort();

  it('is resumed by another process after the last chunk it committed, and only the rest is placed', async () => {
    const table = await builtTable('adjacency', [tree]);
    // The runner's third transaction fails (the first is the job's start; the second places
    // the first chunk of nodes).
    const failing = failingAt(3);
    const first = storeOn(table, failing.doc, 10);
    const started = await first.reindex('path');
    const record = async () =>
      (await dynamo.doc.send(new GetCommand({ TableName: table, Key: jobKey(started.id), ConsistentRead: true })))
        .Item!;
    // The runner gave its lease up: the job waits for a sweep, its first chunk placed.
    for (let i = 0; (await record()).leaseExpiresAt !== 0; i++) {
      if (i > 200) throw new Error('the runner never gave its lease up');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    failing.client.destroy();
    const stopped = await record();
    const placed = Number(stopped.done);
    expect(placed).toBeGreaterThan(1);
    expect(placed).toBeLessThan(10);
    expect(stopped).toMatchObject({ status: 'RUNNING', after: ids[placed - 1], total: ids.length });
    expect(named(await verify(table, 'path'))).toEqual(ids.slice(placed));
    // Asked again, the reindex is the same job; another process's sweep finishes it.
    const second = storeOn(table, dynamo.doc, 10);
    expect((await second.reindex('path')).id).toBe(started.id);
    const jobs = second.startJobs();
    const job = await finished(second, started.id);
    await jobs.stop();
    // Each node was counted once: the second run placed only those the first had not.
    expect(job).toMatchObject({ status: 'DONE', done: ids.length, total: ids.length });
    expect(await verify(table, 'path')).toEqual([]);
    expect(await countKinds(table)).toMatchObject({ level: ids.length, job: 2 });
  });

  it('refuses a reindex to another target while one is open; after it, the other runs from scratch', async () => {
    const table = await builtTable('adjacency', [tree]);
    const failing = failingAt(2);
    const first = storeOn(table, failing.doc, 10);
    const started = await first.reindex('closure');
    failing.client.destroy();
    await expect(storeOn(table).reindex('path')).rejects.toMatchObject({
      code: 'CONFLICT',
      details: { jobId: started.id },
    });
    await expect(storeOn(table).reindex('nowhere')).rejects.toMatchObject({ code: 'BAD_USER_INPUT' });
    // The closure reindex finishes (resumed by a sweep), then the table goes back to adjacency.
    const store = storeOn(table);
    const jobs = store.startJobs();
    expect(await finished(store, started.id)).toMatchObject({ status: 'DONE', done: ids.length });
    await jobs.stop();
    expect(await verify(table, 'closure')).toEqual([]);
    expect(await reindex(table, 'adjacency')).toMatchObject({ status: 'DONE', done: ids.length });
    expect(await verify(table, 'adjacency')).toEqual([]);
    expect(await countKinds(table)).toMatchObject({ level: 0, closure: 0, withPath: 0 });
  });
});

describe('the order of a reindex', () => {
  // 127 nodes, 7 levels, whose ids say nothing of their place: in id order the nodes of one
  // transaction would lie all over the tree, each with checks of its own ancestors.
  const tree = scrambled(fullTree('s', [2, 2, 2, 2, 2, 2]));
  const ids = specIds(tree);

  /** Counts the actions of the TransactWriteItems sent. */
  function countActions(): { middleware: DynamoOptions['middleware']; actions: () => number } {
    let actions = 0;
    const middleware: DynamoOptions['middleware'] = (stack) =>
      stack.add(
        (next, context) => async (args) => {
          if (String(context.commandName).startsWith('TransactWrite'))
            actions += (args.input as { TransactItems: unknown[] }).TransactItems.length;
          return next(args);
        },
        { step: 'initialize', name: 'countActions' },
      );
    return { middleware, actions: () => actions };
  }

  it("places the nodes depth first: a transaction's nodes share their ancestors' checks", async () => {
    const table = await builtTable('adjacency', [tree]);
    const counted = countActions();
    const counting = createDynamo({
      endpoint: inject('dynamoEndpoint'),
      region: 'us-east-1',
      middleware: counted.middleware,
    });
    try {
      expect(await reindex(table, 'nested-set', counting.doc)).toMatchObject({ status: 'DONE', done: ids.length });
    } finally {
      counting.client.destroy();
    }
    expect(await verify(table, 'nested-set')).toEqual([]);
    // Each node: its update and its range item; then a few checks of ancestors per transaction
    // and its fence, the job's start and end: 2.15 actions a node (in id order, 3.46).
    expect(counted.actions() / ids.length).toBeLessThan(2.3);
  });

  it('taken over, places again only the nodes that the table does not show placed', async () => {
    const table = await builtTable('adjacency', [tree]);
    const failing = failingAt(4);
    const started = await storeOn(table, failing.doc, 10).reindex('closure');
    const store = storeOn(table);
    // Once the first runner placed nodes, its client goes (its 4th transaction fails anyway): a
    // sweep of another process takes the job over, its `after` set.
    for (let i = 0; (await store.store.getJobs([started.id])).get(started.id)?.done === 0; i++) {
      if (i > 200) throw new Error('the first runner placed nothing');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    failing.client.destroy();
    const jobs = store.startJobs();
    const job = await finished(store, started.id);
    await jobs.stop();
    expect(job).toMatchObject({ status: 'DONE', done: ids.length, total: ids.length });
    expect(await verify(table, 'closure')).toEqual([]);
  });
});

/** The same tree, its ids replaced by ones in no order of the tree's. */
function scrambled(spec: TreeSpec): TreeSpec {
  let next = 0;
  const visit = (node: TreeSpec): TreeSpec => ({
    id: `x${((next++ * 7919) % 10007).toString().padStart(5, '0')}`,
    ...(node.children ? { children: node.children.map(visit) } : {}),
  });
  return visit(spec);
}

describe.each(['path', 'closure', 'nested-set'] as const)('%s: a reindex over live moves', (strategy) => {
  // Two trees of 1 + 3 + 9 + 27 nodes; moves of whole branches between them while the reindex
  // holds its first write: everything it read is stale for the moved branches.
  const trees = [fullTree('a', [3, 3, 3]), fullTree('b', [3, 3, 3])];

  it('never overwrites a fresher move with a stale place: verify then finds 0 problems', async () => {
    const server = await startTestServer({ strategy });
    try {
      await loadInto(server, trees);
      const pause = pauseTransaction(1);
      const reindexing = createDynamo({
        endpoint: inject('dynamoEndpoint'),
        region: 'us-east-1',
        middleware: pause.middleware,
      });
      pause.arm();
      const run = reindex(server.table, strategy, reindexing.doc);
      await pause.reached;
      const moves: Array<[string, string]> = [
        ['a.0', 'b.2.2'],
        ['b.1', 'a.2.0'],
        ['a.1.1', 'b'],
        ['b.0.0', 'a.0.2'],
      ];
      for (const [id, newParentId] of moves) okData(await server.gql(REPARENT, { id, newParentId }));
      pause.release();
      await run;
      reindexing.client.destroy();
      expect(await verify(server.table, strategy)).toEqual([]);
      const leaf = okData(await server.gql('{ node(id: "a.0.1.1") { depth rootId ancestors { id } } }')).node;
      expect(leaf).toEqual({
        depth: 5,
        rootId: 'b',
        ancestors: ['b', 'b.2', 'b.2.2', 'a.0', 'a.0.1'].map((id) => ({ id })),
      });
    } finally {
      await server.close();
    }
  });
});

/**
 * A DynamoDB that cannot serve some Scan requests: `refuses` picks them, and each is failed with
 * the error the SDK throws once its attempts are spent (`name`), before it is sent.
 */
function refusingScans(name: string, refuses: (input: { Limit?: number; Segment?: number }) => boolean): Dynamo {
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'ScanCommand' && refuses(args.input as { Limit?: number; Segment?: number }))
          throw Object.assign(new Error(`${name} (test)`), { name, $metadata: { httpStatusCode: 400 } });
        return next(args);
      },
      { step: 'initialize', name: 'refusingScans' },
    );
  return createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', middleware });
}

describe('verify on a DynamoDB that serves big pages late', () => {
  // A tree of 13 nodes whose subtree of 4 was moved away and back; read 4 items a page.
  const tree = fullTree('v', [3, 3]);
  const PAGE = 4;

  it.each(STRATEGY_NAMES)(
    '%s: asks for bounded pages, and asks again after a wait for a page that was not served, up to its bound',
    async (strategy) => {
      const table = await builtTable(
        strategy,
        [tree],
        [
          ['v.0', 'v.2.1'],
          ['v.0', 'v'],
        ],
      );
      const verifyThrough = async (dynamo: Dynamo, scan: ScanOptions) => {
        try {
          return await verifyTable(dynamo.doc, table, strategy, MAX_DEPTH, scan);
        } finally {
          dynamo.client.destroy();
        }
      };
      const healthy = { nodes: 13, problems: [] };

      // A page of more than PAGE items (or of 1 MB: no Limit) is not served in time.
      const big = refusingScans('TimeoutError', (input) => !(input.Limit! <= PAGE));
      expect(await verifyThrough(big, { pageItems: PAGE })).toEqual(healthy);

      // The first page of segment 1 is throttled twice: asked again for half as many items each time.
      let throttled = 0;
      const busy = refusingScans('ThrottlingException', (input) => input.Segment === 1 && ++throttled <= 2);
      const waits: ScanWait[] = [];
      const waited = await verifyThrough(busy, { pageItems: PAGE, waitMs: () => 0, onWait: (w) => waits.push(w) });
      expect(waited).toEqual(healthy);
      const wait = { segment: 1, retries: 8, cause: 'ThrottlingException', delayMs: 0 };
      expect(waits).toEqual([
        { ...wait, retry: 1, pageItems: 2 },
        { ...wait, retry: 2, pageItems: 1 },
      ]);
      expect(scanWaitMessage(waits[0]!)).toBe(
        'verify: DynamoDB did not serve a page of segment 1 (ThrottlingException); ' +
          'asking again for 2 items in 0.0 s (retry 1 of 8)',
      );

      // A page that is never served fails the read after its retries.
      const down = refusingScans('TimeoutError', (input) => input.Segment === 2);
      const given: number[] = [];
      await expect(
        verifyThrough(down, { pageItems: PAGE, retries: 3, waitMs: () => 0, onWait: (w) => given.push(w.retry) }),
      ).rejects.toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'DynamoDB is unavailable; try again later',
        details: { cause: 'TimeoutError' },
      });
      expect(given).toEqual([1, 2, 3]);
    },
  );
});

describe('npm run tree', () => {
  interface Run {
    code: number | null;
    stdout: string;
    stderr: string;
  }

  /**
   * The tree command on `table`: through `npm run tree` as a user runs it, or (`built`) the
   * suite's transpiled sources, which start in a third of its CPU.
   */
  const runTree = (table: string, args: string[], via: 'npm' | 'built' = 'built'): Promise<Run> =>
    new Promise((resolve, reject) => {
      const [command, head] =
        via === 'npm' ? ['npm', ['run', 'tree', '--']] : [process.execPath, [inject('treeScript')]];
      const child = spawn(command, [...head, ...args], {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
          DYNAMODB_TABLE: table,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          TREE_STRATEGY: 'adjacency',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
    });

  const USAGE = new RegExp(
    /usage: npm run tree -- verify \[--strategy adjacency\|path\|closure\|nested-set\] \[--tenant T\]\n\s+/.source +
      /npm run tree -- reindex --to adjacency\|path\|closure\|nested-set /.source +
      /\[--respace \[--longer-than N\]\] \[--tenant T\]/.source,
  );

  it('verifies, reports problems by node, refuses bad arguments and reindexes', async () => {
    const tree = fullTree('c', [2, 2]);
    const ids = specIds(tree);
    const table = await builtTable('adjacency', [tree]);

    const [healthy, broken, unknown, badTarget, badLength] = await Promise.all([
      runTree(table, ['verify'], 'npm'),
      runTree(table, ['verify', '--strategy', 'path']),
      runTree(table, ['frobnicate']),
      runTree(table, ['reindex', '--to', 'nowhere']),
      runTree(table, ['reindex', '--to', 'path', '--respace', '--longer-than', 'six']),
    ]);
    expect(healthy.code, healthy.stderr).toBe(0);
    expect(healthy.stdout).toContain(
      '7 nodes checked against the truth and the adjacency projection: 0 problem(s) in 0 node(s)',
    );

    expect(broken.code, broken.stderr).toBe(1);
    expect(broken.stdout).toContain(
      '7 nodes checked against the truth and the path projection: 14 problem(s) in 7 node(s)',
    );
    for (const id of ids) {
      expect(broken.stdout).toContain(`  ${id}: stored path null, expected `);
      expect(broken.stdout).toMatch(new RegExp(`  ${id.replace(/\./g, '\\.')}: missing projection item L#c#`));
    }

    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(USAGE);
    expect(badTarget.code).toBe(1);
    expect(badTarget.stderr).toContain('expected a strategy (adjacency, path, closure, nested-set), got "nowhere"');
    expect(badTarget.stderr).toMatch(USAGE);
    expect(badLength.code).toBe(2);
    expect(badLength.stderr).toContain('--longer-than takes a number of characters of at least 2, got "six"');

    const reindexed = await runTree(table, ['reindex', '--to', 'closure']);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(reindexed.stdout).toContain('7 nodes reindexed for closure; now set TREE_STRATEGY=closure');
    expect(await verify(table, 'closure')).toEqual([]);
  });

  it('lists the jobs, and waits for one with its progress', async () => {
    const server = await startTestServer({ strategy: 'adjacency' });
    let jobId: string;
    try {
      await loadInto(server, [{ id: 'j', children: [fullTree('j1', [3, 4, 4])] }]);
      jobId = okData(await server.gql('mutation { deleteNode(id: "j1") { job { id } } }')).deleteNode.job.id;
    } finally {
      await server.close();
    }
    const [listed, waited, unknown] = await Promise.all([
      runTree(server.table, ['jobs']),
      runTree(server.table, ['jobs', '--wait', jobId]),
      runTree(server.table, ['jobs', '--wait', 'no-such-job']),
    ]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${jobId}  DELETE j1  DONE  64/64  started `));
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toContain(`job ${jobId}: DELETE DONE, 64 node(s)`);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no job no-such-job');
  });
});
