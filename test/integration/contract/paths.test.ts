import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../support/npmStart.js';
import { pauses } from '../../support/pause.js';
import { plannedRequests, startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { IN_FLIGHT } from '../../support/transactionConflicts.js';
import { expectError, okData } from '../../support/tree.js';
import { contractCostsOf } from '../../support/contractCosts.js';
import { DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { loadNodeTypes } from '../../../src/nodeTypes/loadNodeTypes.js';
import { createStore } from '../../../src/storage/store/createStore.js';
import { addressPk } from '../../../src/storage/strategies/path/addressKeys.js';
import type { Job } from '../../../src/storage/treeStore.js';

/**
 * Paths (NODE_TYPES=schema/catalog.graphql, docs/contract.md "Paths"), under every strategy: a
 * path key unique among siblings, enforced in the write's own transaction (two concurrent
 * creates, AWS's transaction conflicts emulated), `nodeByPath` at each strategy's stated cost
 * (contractCosts.ts, `paths`), and old paths that still find a node after a move or a rename, flagged.
 */
const NODE_TYPES = `${REPO_ROOT}schema/catalog.graphql`;

const BY_PATH = 'query ($root: ID!, $path: String!) { nodeByPath(rootId: $root, path: $path) { id } }';
const LOOKUP =
  'query ($root: ID!, $path: String!) { pathLookup(rootId: $root, path: $path) { node { id } moved path } }';

describe.each(STRATEGIES_UNDER_TEST)('%s: paths', (strategy) => {
  let server: TestServer;
  const pause = pauses('build');
  // Holds a transaction before it is in flight (the conflicts' emulation has not seen it).
  const early = pauses('initialize');
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({
      strategy,
      env: { NODE_TYPES },
      middleware: (stack) => {
        pause.middleware(stack);
        early.middleware(stack);
      },
      emulateConflicts: true,
    });
  });
  afterAll(() => server?.close());

  const create = (id: string, parentId: string | null, typed: string) =>
    server.gql(
      `mutation ($p: ID) { createNode(input: { id: "${id}", parentId: $p, name: "${id}", ${typed} }) { id } }`,
      {
        p: parentId,
      },
    );
  const category = (id: string, parentId: string | null, slug: string) =>
    create(id, parentId, `category: { slug: "${slug}" }`);
  const found = async (root: string, path: string) =>
    (await server.gql(BY_PATH, { root, path })).body.data?.nodeByPath?.id ?? null;

  /** A shop `s<n>`: electronics / computers / laptops, and a product under laptops; the ids prefixed. */
  const shop = async () => {
    const s = `s${++n}`;
    okData(await category(s, null, 'shop'));
    okData(await category(`${s}-el`, s, 'electronics'));
    okData(await category(`${s}-co`, `${s}-el`, 'computers'));
    okData(await category(`${s}-la`, `${s}-co`, 'laptops'));
    okData(await create(`${s}-mbp`, `${s}-la`, 'product: { slug: "mbp", price: 1999 }'));
    return s;
  };

  const requests = (answer: { body: { extensions?: { dynamodb?: { requests: number } } } }) =>
    answer.body.extensions!.dynamodb!.requests;

  it("finds a node by its path, at the strategy's stated cost", async () => {
    const costs = contractCostsOf(strategy).paths;
    const s = await shop();
    const answer = await server.gql(BY_PATH, { root: s, path: 'electronics/computers/laptops/mbp' });
    expect(okData(answer).nodeByPath).toEqual({ id: `${s}-mbp` });
    expect(requests(answer)).toBe(costs.current(4));
    const short = await server.gql(BY_PATH, { root: `${s}-co`, path: 'laptops' });
    expect(okData(short).nodeByPath).toEqual({ id: `${s}-la` });
    expect(requests(short)).toBe(costs.inner(1));
    // A path that names nothing: null, after the steps it could read.
    const missing = await server.gql(BY_PATH, { root: s, path: 'electronics/phones/x' });
    expect(okData(missing).nodeByPath).toBeNull();
    expect(requests(missing)).toBe(costs.missing(1));
    // An old path (the node moved): found, at the cost of the walk.
    okData(await category(`${s}-ho`, s, 'home'));
    okData(await server.gql(`mutation { reparent(id: "${s}-la", newParentId: "${s}-ho") { id } }`));
    const old = await server.gql(BY_PATH, { root: s, path: 'electronics/computers/laptops/mbp' });
    expect(okData(old).nodeByPath).toEqual({ id: `${s}-mbp` });
    expect(requests(old)).toBe(costs.old(4));
    expect(requests(await server.gql(BY_PATH, { root: s, path: 'home/laptops/mbp' }))).toBe(costs.current(3));
    expect(await found('nowhere', 'electronics')).toBeNull();
    expect(okData(await server.gql(LOOKUP, { root: s, path: 'electronics/computers' })).pathLookup).toEqual({
      node: { id: `${s}-co` },
      moved: false,
      path: 'electronics/computers',
    });
    expect(await server.verify()).toEqual([]);
  });

  it('refuses a malformed path or path key, and changes nothing', async () => {
    const s = await shop();
    for (const [path, message] of [
      ['', 'path is empty: it names a node below rootId by its path key values, joined by "/"'],
      ['electronics//laptops', 'path has an empty step (two "/" in a row, or one at an end): "electronics//laptops"'],
      ['electronics/', 'path has an empty step (two "/" in a row, or one at an end): "electronics/"'],
    ] as const)
      expectError(await server.gql(BY_PATH, { root: s, path }), 'BAD_USER_INPUT', {
        message,
        details: { field: 'path' },
      });
    expectError(await category('bad', s, 'a/b'), 'BAD_USER_INPUT', {
      message: 'Category.slug is a path key: it may not hold "/", got "a/b"',
      details: { field: 'Category.slug' },
    });
    expectError(await category('bad', s, ''), 'BAD_USER_INPUT', {
      message: 'Category.slug is a path key: it may not be empty',
    });
  });

  it('keeps a path key unique among siblings: create, rename, move, list, copy', async () => {
    const s = await shop();
    const taken = (holder: string, parentId: string, pathKey: string) => ({
      message: `the path key "${pathKey}" is taken under "${parentId}" by "${holder}"`,
      details: { id: holder, parentId, pathKey },
    });
    const again = await category(`${s}-el2`, s, 'electronics');
    expectError(again, 'ALREADY_EXISTS', taken(`${s}-el`, s, 'electronics'));
    // Refused by its transaction's condition: nothing of it written.
    expect(okData(await server.gql(`{ node(id: "${s}") { childCount } }`)).node.childCount).toBe(1);
    expect(okData(await server.gql(`{ node(id: "${s}-el2") { id } }`)).node).toBeNull();
    // Another parent's children, and the roots, may have it.
    okData(await category(`${s}-el3`, `${s}-co`, 'electronics'));
    okData(await category(`${s}-root2`, null, 'shop'));
    okData(await category(`${s}-ho`, s, 'home'));
    const renamed = await server.gql(
      `mutation { updateNode(id: "${s}-ho", category: { slug: "electronics" }) { id } }`,
    );
    expectError(renamed, 'ALREADY_EXISTS', taken(`${s}-el`, s, 'electronics'));
    const moved = await server.gql(`mutation { reparent(id: "${s}-el3", newParentId: "${s}") { id } }`);
    expectError(moved, 'ALREADY_EXISTS', taken(`${s}-el`, s, 'electronics'));
    const twice = (a: string, b: string, parentId: string | null = s) =>
      server.gql('mutation ($input: CreateNodesInput!) { createNodes(input: $input) { nodes { id } } }', {
        input: { parentId, nodes: [a, b].map((slug) => ({ name: slug, category: { slug } })) },
      });
    const list = await twice('x', 'x');
    expectError(list, 'BAD_USER_INPUT', {
      message: 'nodes[1].Category.slug: "x" is the path key of nodes[0] too, under the same parent',
    });
    // Roots need none: two new roots may share one.
    expect(okData(await twice('shop', 'shop', null)).createNodes.nodes).toHaveLength(2);
    const listed = await twice('y', 'home');
    expectError(listed, 'ALREADY_EXISTS', taken(`${s}-ho`, s, 'home'));
    const copy =
      'mutation ($id: ID!, $to: ID, $key: String) ' +
      '{ copySubtree(input: { id: $id, newParentId: $to, idPrefix: "c", pathKey: $key }) { node { id } } }';
    expectError(await server.gql(copy, { id: `${s}-el`, to: s }), 'ALREADY_EXISTS', taken(`${s}-el`, s, 'electronics'));
    expect(okData(await server.gql(copy, { id: `${s}-el`, to: s, key: 'electronics-2' })).copySubtree.node).toEqual({
      id: `c${s}-el`,
    });
    expect(await found(s, 'electronics-2/computers/laptops/mbp')).toBe(`c${s}-mbp`);
    expect(await found(s, 'electronics/computers/laptops/mbp')).toBe(`${s}-mbp`);
  });

  it('lets one of two concurrent creates of a path key win (AWS transaction conflicts emulated)', async () => {
    const s = await shop();
    const held = pause.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('K#tv'),
    );
    const first = category(`${s}-tv1`, `${s}-el`, 'tv');
    await held.reached; // the first create's transaction in flight, held
    const cancelled = IN_FLIGHT.cancelled;
    const second = category(`${s}-tv2`, `${s}-el`, 'tv');
    await vi.waitFor(() => expect(IN_FLIGHT.cancelled).toBeGreaterThan(cancelled));
    held.release();
    okData(await first);
    expectError(await second, 'ALREADY_EXISTS', {
      message: `the path key "tv" is taken under "${s}-el" by "${s}-tv1"`,
    });
    expect(await found(s, 'electronics/tv')).toBe(`${s}-tv1`);
  });

  it('gives a node created below a concurrent rename the new path: the create plans again', async () => {
    const s = await shop();
    const held = early.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('K#new'),
    );
    const created = category(`${s}-new`, `${s}-la`, 'new');
    await held.reached; // planned on the chain as it was: electronics/computers/laptops
    okData(await server.gql(`mutation { updateNode(id: "${s}-co", category: { slug: "pcs" }) { id } }`));
    held.release();
    okData(await created);
    expect(await found(s, 'electronics/pcs/laptops/new')).toBe(`${s}-new`);
    expect(await found(s, 'electronics/pcs/laptops/mbp')).toBe(`${s}-mbp`);
    expect(await server.verify()).toEqual([]);
  });

  it('still finds a node by an old path after a move or a rename, flagged, until a sibling takes it', async () => {
    const s = await shop();
    okData(await category(`${s}-ho`, s, 'home'));
    okData(await server.gql(`mutation { reparent(id: "${s}-co", newParentId: "${s}-ho") { id } }`));
    expect(await found(s, 'home/computers/laptops/mbp')).toBe(`${s}-mbp`);
    expect(okData(await server.gql(LOOKUP, { root: s, path: 'electronics/computers/laptops/mbp' })).pathLookup).toEqual(
      {
        node: { id: `${s}-mbp` },
        moved: true,
        path: 'home/computers/laptops/mbp',
      },
    );
    okData(await server.gql(`mutation { updateNode(id: "${s}-la", category: { slug: "notebooks" }) { id } }`));
    expect(await found(s, 'home/computers/notebooks/mbp')).toBe(`${s}-mbp`);
    expect(okData(await server.gql(LOOKUP, { root: s, path: 'home/computers/laptops' })).pathLookup).toEqual({
      node: { id: `${s}-la` },
      moved: true,
      path: 'home/computers/notebooks',
    });
    // A sibling takes the old value: the old path names it now.
    okData(await category(`${s}-co2`, `${s}-el`, 'computers'));
    expect(okData(await server.gql(LOOKUP, { root: s, path: 'electronics/computers' })).pathLookup).toEqual({
      node: { id: `${s}-co2` },
      moved: false,
      path: 'electronics/computers',
    });
    // Moved back: the path is its own again.
    okData(await server.gql(`mutation { reparent(id: "${s}-la", newParentId: "${s}-co2") { id } }`));
    expect(
      okData(await server.gql(LOOKUP, { root: s, path: 'electronics/computers/notebooks' })).pathLookup,
    ).toMatchObject({
      node: { id: `${s}-la` },
      moved: false,
    });
  });

  it('forgets a deleted node, finds it again once restored, and undoes a rename', async () => {
    const s = await shop();
    okData(await server.gql(`mutation { deleteNode(id: "${s}-co") { deletedCount } }`));
    expect(await found(s, 'electronics/computers')).toBeNull();
    expect(await found(s, 'electronics/computers/laptops/mbp')).toBeNull();
    okData(await server.gql(`mutation { restoreNode(id: "${s}-co") { id } }`));
    expect(await found(s, 'electronics/computers/laptops/mbp')).toBe(`${s}-mbp`);
    const renamed = okData(
      await server.gql(
        `mutation { updateNode(id: "${s}-el", category: { slug: "tech" }) { id history(first: 1) { nodes { id } } } }`,
      ),
    ).updateNode;
    expect(await found(s, 'tech/computers')).toBe(`${s}-co`);
    okData(await server.gql(`mutation ($id: ID!) { undo(changeId: $id) { id } }`, { id: renamed.history.nodes[0].id }));
    expect(okData(await server.gql(LOOKUP, { root: s, path: 'electronics/computers' })).pathLookup.moved).toBe(false);
    expect(okData(await server.gql(LOOKUP, { root: s, path: 'tech/computers' })).pathLookup.moved).toBe(true);
    expect(await server.verify()).toEqual([]);
  });
});

describe.each(STRATEGIES_UNDER_TEST)('%s: paths through jobs, verify and reindex', (strategy) => {
  let server: TestServer;
  // Holds a transaction before it is in flight.
  const early = pauses('initialize');

  beforeAll(async () => {
    // Transactions of 10 items: lists, copies, moves and deletes of a few nodes run as jobs.
    server = await startTestServer({
      strategy,
      env: { NODE_TYPES, TRANSACTION_ITEMS: '10' },
      middleware: early.middleware,
    });
  });
  afterAll(() => server?.close());

  const found = async (root: string, path: string) =>
    okData(await server.gql(LOOKUP, { root, path })).pathLookup as {
      node: { id: string };
      moved: boolean;
      path: string;
    } | null;
  const list = (parentId: string, slugs: string[], ids = parentId) =>
    server.gql(
      `mutation ($input: CreateNodesInput!) { createNodes(input: $input) { job { kind status } nodes { id } } }`,
      {
        input: {
          parentId,
          nodes: slugs.map((slug) => ({ id: `${ids}-${slug}`, name: slug, category: { slug } })),
        },
      },
    );

  /** The cost of `nodeByPath`, which must find `id`, less the reads a slow machine made again. */
  const costByPath = async (root: string, path: string, id: string) => {
    const answer = await server.gql(BY_PATH, { root, path });
    expect(okData(answer).nodeByPath).toEqual({ id });
    return plannedRequests(answer);
  };

  it('claims path keys in an import job, gives it up on a taken one, keeps them through moves, deletes', async () => {
    okData(await server.gql('mutation { createNode(input: { id: "j", name: "J", category: { slug: "j" } }) { id } }'));
    const made = okData(await list('j', ['a', 'b', 'c', 'd', 'e', 'f']));
    expect(made.createNodes.job).toEqual({ kind: 'IMPORT', status: 'DONE' });
    okData(await list('j-a', ['x1', 'x2', 'x3', 'x4', 'x5']));
    expect((await found('j', 'a/x5'))?.node.id).toBe('j-a-x5');
    // One of the list's path keys taken: the job is given up, none of its nodes left.
    const refused = await list('j', ['g', 'h', 'i', 'k', 'l', 'c'], 'other');
    expectError(refused, 'ALREADY_EXISTS', { message: 'the path key "c" is taken under "j" by "j-c"' });
    expect(await found('j', 'g')).toBeNull();
    expect(okData(await server.gql('{ node(id: "j") { childCount } }')).node.childCount).toBe(6);
    // A move job: the new path, and the old one flagged.
    const moved = okData(
      await server.gql('mutation { reparent(id: "j-a", newParentId: "j-b") { id pendingJob { kind } } }'),
    );
    expect(moved.reparent.id).toBe('j-a'); // a job under the strategies that rewrite the subtree's items
    expect(await found('j', 'b/a/x1')).toEqual({ node: { id: 'j-a-x1' }, moved: false, path: 'b/a/x1' });
    expect(await found('j', 'a/x1')).toEqual({ node: { id: 'j-a-x1' }, moved: true, path: 'b/a/x1' });
    okData(await server.gql('mutation { deleteNode(id: "j-b") { deletedCount job { kind } } }'));
    expect(await found('j', 'b/a/x1')).toBeNull();
    expect(await found('j', 'a/x1')).toBeNull();
    expect(await server.verify()).toEqual([]);
  });

  it('renames a path key above a subtree bigger than one transaction: every path below follows', async () => {
    okData(await server.gql('mutation { createNode(input: { id: "r", name: "R", category: { slug: "r" } }) { id } }'));
    okData(await list('r', ['a', 'b']));
    okData(await list('r-a', ['x1', 'x2', 'x3', 'x4', 'x5', 'x6']));
    okData(await list('r-a-x6', ['y1', 'y2']));
    const rename = 'mutation { updateNode(id: "r-a", category: { slug: "z" }) { id pendingJob { kind } } }';
    // Under path, a MOVE job rewrites the subtree's addresses; reads see through it meanwhile.
    expect(okData(await server.gql(rename)).updateNode.id).toBe('r-a');
    expect(await found('r', 'z/x6/y2')).toEqual({ node: { id: 'r-a-x6-y2' }, moved: false, path: 'z/x6/y2' });
    expect(await found('r', 'a/x6/y2')).toEqual({ node: { id: 'r-a-x6-y2' }, moved: true, path: 'z/x6/y2' });
    await vi.waitFor(
      async () =>
        expect(okData(await server.gql('{ node(id: "r-a") { pendingJob { kind } } }')).node.pendingJob).toBeNull(),
      { timeout: 10_000, interval: 50 },
    );
    const costs = contractCostsOf(strategy).paths;
    // Jobs ran lately: reading the node costs the Query of the open jobs' entries too (visibleNodes.ts).
    expect(await costByPath('r', 'z/x6/y1', 'r-a-x6-y1')).toBe(costs.current(3) + 1);
    // The old value taken by a sibling: the old path names the sibling, the renamed subtree keeps its own.
    okData(await list('r', ['a'], 'r-new'));
    expect(await found('r', 'a')).toEqual({ node: { id: 'r-new-a' }, moved: false, path: 'a' });
    expect(await found('r', 'z/x1')).toEqual({ node: { id: 'r-a-x1' }, moved: false, path: 'z/x1' });
    expect(await server.verify()).toEqual([]);
  });

  it('gives a node created below a concurrent rename job the new path: the create waits for the job', async () => {
    okData(await server.gql('mutation { createNode(input: { id: "w", name: "W", category: { slug: "w" } }) { id } }'));
    okData(await list('w', ['a']));
    okData(await list('w-a', ['x1', 'x2', 'x3', 'x4', 'x5', 'x6']));
    const held = early.next(
      (command, input) => command.startsWith('TransactWrite') && JSON.stringify(input).includes('K#new'),
    );
    const created = server.gql(
      'mutation { createNode(input: { id: "w-new", parentId: "w-a-x6", name: "N", category: { slug: "new" } }) ' +
        '{ id } }',
    );
    await held.reached; // planned on the chain as it was: a/x6
    okData(await server.gql('mutation { updateNode(id: "w-a", category: { slug: "z" }) { id } }'));
    held.release();
    expect(okData(await created).createNode).toEqual({ id: 'w-new' });
    await vi.waitFor(
      async () =>
        expect(okData(await server.gql('{ node(id: "w-a") { pendingJob { kind } } }')).node.pendingJob).toBeNull(),
      { timeout: 10_000, interval: 50 },
    );
    expect(await found('w', 'z/x6/new')).toEqual({ node: { id: 'w-new' }, moved: false, path: 'z/x6/new' });
    expect(await server.verify()).toEqual([]);
  });

  const create = (id: string, parentId: string | null, slug: string) =>
    server.gql(
      'mutation ($id: ID!, $name: String!, $p: ID, $slug: String!) ' +
        '{ createNode(input: { id: $id, parentId: $p, name: $name, category: { slug: $slug } }) { id } }',
      { id, name: id, p: parentId, slug },
    );

  /** A reindex in place by a store of its own (a process running jobs), to its end. */
  async function reindex(doc: DynamoDBDocumentClient): Promise<Job | undefined> {
    const store = createStore({
      doc,
      table: server.table,
      strategy,
      maxTreeDepth: server.config.maxTreeDepth,
      cursorSecret: 'test',
      jobLeaseMs: 1000,
      transactionItems: 100,
      changeRetentionMs: 86_400_000,
      undoRetentionMs: 86_400_000,
      nodeTypes: loadNodeTypes(NODE_TYPES),
    });
    const jobs = store.startJobs();
    try {
      const { id } = await store.reindex(strategy);
      let job: Job | undefined;
      await vi.waitFor(
        async () => {
          job = (await store.store.getJobs([id])).get(id);
          expect(job?.status).not.toBe('RUNNING');
        },
        { timeout: 20_000, interval: 25 },
      );
      return job;
    } finally {
      await jobs.stop();
    }
  }

  /** Under path: v-b's address and v-a's kept path keys lost; the problems verify names for them. */
  async function loseAddresses(doc: DynamoDBDocumentClient) {
    const lost = { pk: addressPk('v', 'a/b'), sk: 'v-b' };
    await doc.send(new DeleteCommand({ TableName: server.table, Key: lost }));
    await doc.send(
      new UpdateCommand({
        TableName: server.table,
        Key: { pk: 'N#v-a', sk: 'NODE' },
        UpdateExpression: 'REMOVE #keys',
        ExpressionAttributeNames: { '#keys': 'keys' },
      }),
    );
    return [
      { nodeId: 'v-a', problem: 'stored keys null, expected ["a"]' },
      { nodeId: 'v-b', problem: `missing projection item ${lost.pk} ${lost.sk}` },
    ];
  }

  it('names a node whose path key is unclaimed (under path: whose address is lost); a reindex repairs it', async () => {
    okData(await create('v', null, 'v'));
    okData(await create('v-a', 'v', 'a'));
    okData(await create('v-b', 'v-a', 'b'));
    okData(await create('v-c', 'v-a', 'c'));
    const { doc } = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    // v-c's value as if its type were given its @pathKey after it was written: no item claims it.
    await doc.send(new DeleteCommand({ TableName: server.table, Key: { pk: 'N#v-a', sk: 'K#c' } }));
    const lost = strategy === 'path' ? await loseAddresses(doc) : [];
    const problems = (await server.verify()).sort((x, y) => x.nodeId.localeCompare(y.nodeId));
    expect(problems).toEqual([
      ...lost,
      { nodeId: 'v-c', problem: 'its path key "c" is not claimed: no live K#c item in N#v-a' },
    ]);
    // A lost address: the walk answers (the address read that found nothing, a read a step, the
    // node's; jobs ran lately in this table: the Query of the open jobs' entries too).
    const walkCost = contractCostsOf(strategy).paths[lost.length ? 'old' : 'current'](2) + 1;
    expect(await costByPath('v', 'a/b', 'v-b')).toBe(walkCost);
    expect(await reindex(doc)).toMatchObject({ status: 'DONE' });
    expect(await server.verify()).toEqual([]);
    expectError(await create('v-c2', 'v-a', 'c'), 'ALREADY_EXISTS', {
      message: 'the path key "c" is taken under "v-a" by "v-c"',
    });
    // Its address again, and the node (and the Query of the open jobs' entries).
    const cost = contractCostsOf(strategy).paths.current(2) + 1;
    expect(await costByPath('v', 'a/b', 'v-b')).toBe(cost);
  });
});
