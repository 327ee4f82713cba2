import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadInto } from '../../support/loadTree.js';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import { contractCostsOf } from '../../support/contractCosts.js';
import { eventually } from '../../support/eventually.js';
import { pauses } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, uniqueTable, type TestServer } from '../../support/server.js';
import { expectError, fullTree, okData, type TreeSpec } from '../../support/tree.js';
import { traitsOf } from '../../support/traits.js';

/**
 * `descendantCount(maxDepth)`: the exact number of nodes 1 to maxDepth levels below a node, under
 * every strategy, checked against a model of the tree as the test changes it (moves, a reorder,
 * deletes), while jobs move, delete and import subtrees, and at the cost each strategy's folder
 * declares (`contractCosts.ts`, `counts`).
 */

/** The children of every node, as the test changes the tree: what every count must agree with. */
class TreeModel {
  private readonly kids = new Map<string, string[]>();
  private readonly parents = new Map<string, string | null>();

  constructor(specs: TreeSpec[]) {
    const add = (spec: TreeSpec, parent: string | null) => {
      this.place(spec.id, parent);
      for (const child of spec.children ?? []) add(child, spec.id);
    };
    for (const spec of specs) add(spec, null);
  }

  /** Nodes 1 to maxDepth levels below `id` (null: all). */
  count(id: string, maxDepth: number | null = null): number {
    let count = 0;
    let level = [id];
    for (let depth = 1; level.length > 0 && (maxDepth === null || depth <= maxDepth); depth++) {
      level = level.flatMap((node) => this.kids.get(node) ?? []);
      count += level.length;
    }
    return count;
  }

  move(id: string, parent: string | null): void {
    this.unlink(id);
    this.place(id, parent);
  }

  delete(id: string): void {
    this.unlink(id);
    const drop = (node: string) => {
      for (const child of this.kids.get(node) ?? []) drop(child);
      this.kids.delete(node);
      this.parents.delete(node);
    };
    drop(id);
  }

  private place(id: string, parent: string | null): void {
    this.parents.set(id, parent);
    if (!this.kids.has(id)) this.kids.set(id, []);
    if (parent !== null) this.kids.get(parent)!.push(id);
  }

  private unlink(id: string): void {
    const parent = this.parents.get(id);
    if (parent)
      this.kids.set(
        parent,
        this.kids.get(parent)!.filter((child) => child !== id),
      );
  }
}

const COUNTS = `query($ids: [ID!]!) {
  nodes(ids: $ids) {
    id
    whole: descendantCount
    open: descendantCount(maxDepth: null)
    none: descendantCount(maxDepth: 0)
    one: descendantCount(maxDepth: 1)
    two: descendantCount(maxDepth: 2)
    three: descendantCount(maxDepth: 3)
    far: descendantCount(maxDepth: 1000)
  }
}`;

/** What COUNTS must answer for `ids`, by the model. */
const expectedCounts = (model: TreeModel, ids: string[]) =>
  ids.map((id) => ({
    id,
    whole: model.count(id),
    open: model.count(id),
    none: 0,
    one: model.count(id, 1),
    two: model.count(id, 2),
    three: model.count(id, 3),
    far: model.count(id),
  }));

const countsOf = async (server: TestServer, ids: string[]) => okData(await server.gql(COUNTS, { ids })).nodes;

/**
 * Holds every Query once `hold()` is called, until `release()`: how many are held at once tells
 * which Queries a request sends together, in one wave.
 */
function queryGate() {
  let holding = false;
  const held: Array<() => void> = [];
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next, context) => async (args) => {
        if (holding && String(context.commandName).startsWith('Query')) {
          await new Promise<void>((resolve) => held.push(resolve));
        }
        return next(args);
      },
      { step: 'initialize', name: 'queryGate' },
    );
  return {
    middleware,
    hold: () => (holding = true),
    waiting: async () => held.length,
    release() {
      holding = false;
      for (const resume of held.splice(0)) resume();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// c: 3 children, 6 grandchildren, 12 nodes at depth 3.
const C = fullTree('c', [3, 2, 2]);
const OTHER = fullTree('o', [2, 2]);

describe.each(STRATEGIES_UNDER_TEST)('%s: descendantCount', (strategy) => {
  let server: TestServer;
  const gate = queryGate();
  const model = new TreeModel([C, OTHER]);
  const costs = contractCostsOf(strategy).counts;

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: gate.middleware });
    await loadInto(server, [C, OTHER]);
  }, 120_000);
  afterAll(() => server?.close());

  it('counts exactly: whole subtrees, depth bounds, a leaf, nodes below the root', async () => {
    const ids = ['c', 'c.1', 'c.2.1', 'c.0.0.0', 'o', 'o.1'];
    expect(await countsOf(server, ids)).toEqual(expectedCounts(model, ids));
    expect(model.count('c')).toBe(3 + 6 + 12);
    // The same as the descendants a page lists.
    const page = okData(
      await server.gql('{ node(id: "c") { descendants(first: 1000, maxDepth: 2) { nodes { id } } } }'),
    );
    expect(page.node.descendants.nodes).toHaveLength(model.count('c', 2));
    // Nodes of a page of children, read from their edges (which keep no path).
    const children = okData(await server.gql('{ node(id: "c") { children { nodes { id descendantCount } } } }'));
    const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
    expect([...children.node.children.nodes].sort(byId)).toEqual(
      ['c.0', 'c.1', 'c.2'].map((id) => ({ id, descendantCount: model.count(id) })),
    );
  });

  it('costs what the strategy declares, a list counted together', async () => {
    const cost = async (query: string, expected: unknown) => {
      const response = await server.gql(query);
      expect(okData(response)).toEqual(expected);
      return response.body.extensions?.dynamodb?.requests;
    };
    expect(await cost('{ node(id: "c") { descendantCount } }', { node: { descendantCount: 21 } })).toBe(costs.whole);
    const bounded = (maxDepth: number, count: number) =>
      cost(`{ node(id: "c") { descendantCount(maxDepth: ${maxDepth}) } }`, { node: { descendantCount: count } });
    expect(await bounded(1, 3)).toBe(costs.depthOne);
    expect(await bounded(2, 9)).toBe(costs.depthTwo);
    expect(await bounded(3, 21)).toBe(costs.depthThree);
    expect(await cost('{ node(id: "c.1") { descendantCount } }', { node: { descendantCount: 6 } })).toBe(costs.branch);
    const list = await cost('{ nodes(ids: ["c.0", "c.1", "c.2"]) { descendantCount } }', {
      nodes: [{ descendantCount: 6 }, { descendantCount: 6 }, { descendantCount: 6 }],
    });
    expect(list).toBe(costs.listOfThree);
    // A leaf, and maxDepth 0: the lookup alone.
    expect(await cost('{ node(id: "c.0.0.0") { descendantCount } }', { node: { descendantCount: 0 } })).toBe(1);
    expect(await bounded(0, 0)).toBe(1);
  });

  it("sends the first Queries of a list's counts in one wave, not one node after the other", async () => {
    /** The Queries held at once while `query` runs, once no more come. */
    const heldAtOnce = async (query: string, atLeast: number) => {
      gate.hold();
      const answer = server.gql(query);
      try {
        await eventually(`${atLeast} Queries held at once`, gate.waiting, (n) => n >= atLeast);
        await sleep(300);
        return await gate.waiting();
      } finally {
        gate.release();
        okData(await answer);
      }
    };
    const one = await heldAtOnce('{ node(id: "c.0") { descendantCount } }', 1);
    // Counted one node after the other, only the first node's Queries would be sent.
    expect(await heldAtOnce('{ nodes(ids: ["c.0", "c.1", "c.2"]) { descendantCount } }', 3 * one)).toBe(3 * one);
  });

  it('refuses a negative maxDepth with BAD_USER_INPUT', async () => {
    expectError(await server.gql('{ node(id: "c") { descendantCount(maxDepth: -1) } }'), 'BAD_USER_INPUT', {
      message: 'maxDepth must be >= 0, got -1',
      details: { field: 'maxDepth' },
    });
  });

  it('follows moves, a reorder and deletes', async () => {
    const ids = ['c', 'c.0', 'c.0.0', 'c.1', 'c.2', 'c.2.0', 'o', 'o.0'];
    const write = async (mutation: string) => okData(await server.gql(`mutation { ${mutation} }`));

    // c.2 (7 nodes) two levels deeper, under c.0.0.
    await write('reparent(id: "c.2", newParentId: "c.0.0") { id }');
    model.move('c.2', 'c.0.0');
    expect(await countsOf(server, ids)).toEqual(expectedCounts(model, ids));

    // Into the other tree, then a reorder among its new siblings.
    await write('reparent(id: "c.1", newParentId: "o") { id }');
    model.move('c.1', 'o');
    await write('reparent(id: "c.1", newParentId: "o", before: "o.0") { id }');
    expect(await countsOf(server, ids)).toEqual(expectedCounts(model, ids));

    // A node of depth 1 made a root.
    await write('reparent(id: "o.0", newParentId: null) { id }');
    model.move('o.0', null);
    expect(await countsOf(server, ids)).toEqual(expectedCounts(model, ids));

    await write('deleteNode(id: "c.2") { deletedCount }');
    model.delete('c.2');
    await write('deleteNode(id: "c.1.0") { deletedCount }');
    model.delete('c.1.0');
    const left = ids.filter((id) => !['c.2', 'c.2.0'].includes(id));
    expect(await countsOf(server, left)).toEqual(expectedCounts(model, left));
    expect(model.count('c')).toBe(1 + 2 + 4);
  });
});

/**
 * While jobs run (TRANSACTION_ITEMS lowered to 10: a move or delete of 13 nodes is a job, and so is
 * an import of 12): a fault middleware holds the writer's job in the middle, and another process
 * counts. The counts are those of the tree with every accepted change complete.
 */
const SMALL_BUDGET = { TRANSACTION_ITEMS: '10' };
// The move job's claims take 3 transactions, its acceptance the 4th (moves/moveJob.test.ts).
const MOVE_ACCEPTED = 4;
const MOVED = fullTree('m', [3, 3]);
const FIXTURE: TreeSpec[] = [
  { id: 'src', children: [MOVED, { id: 'src.x' }] },
  { id: 'dst', children: [{ id: 'd1', children: [{ id: 'd2' }] }] },
];
const LOOKED_AT = ['src', 'm', 'm.0', 'dst', 'd1', 'd2'];
const JOBS = '{ jobs { nodes { kind status } } }';

type Input = Record<string, unknown>;
const transactItems = (input: Input) => (input.TransactItems ?? []) as Array<Record<string, { Key?: Input }>>;

describe.each(STRATEGIES_UNDER_TEST)('%s: descendantCount while jobs run', (strategy) => {
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const server of servers.reverse()) await server.close();
    servers = [];
  });

  /** A writer whose transactions can be held, and a reader, on one table holding FIXTURE. */
  async function writerAndReader() {
    const table = uniqueTable();
    const pause = pauses();
    const writer = await startTestServer({ strategy, table, env: SMALL_BUDGET, middleware: pause.middleware });
    servers.push(writer);
    await loadInto(writer, FIXTURE);
    const reader = await startTestServer({ strategy, table });
    servers.push(reader);
    return { pause, writer, reader, model: new TreeModel(FIXTURE) };
  }

  const jobsDone = (server: TestServer) =>
    eventually(
      'every job done',
      async () => okData(await server.gql(JOBS)).jobs.nodes as Array<{ status: string }>,
      (jobs) => jobs.every((job) => job.status !== 'RUNNING'),
    );

  it('counts as if a move were done while its job rewrites the projection', async () => {
    const { pause, writer, reader, model } = await writerAndReader();
    // Under adjacency a move writes a few items whatever the subtree: never a job.
    const isJob = traitsOf(strategy).keepsPath;
    let seen = 0;
    const held = isJob
      ? pause.next((command) => command.startsWith('TransactWrite') && ++seen === MOVE_ACCEPTED + 2)
      : undefined;
    okData(await writer.gql('mutation { reparent(id: "m", newParentId: "d2") { id } }'));
    model.move('m', 'd2');
    if (held) {
      // The move is accepted and one chunk of the projection rewritten, the rest not yet.
      await held.reached;
      const during = okData(await reader.gql('{ node(id: "m") { pendingJob { kind status } } }')).node;
      expect(during.pendingJob).toEqual({ kind: 'MOVE', status: 'RUNNING' });
      expect(await countsOf(reader, LOOKED_AT)).toEqual(expectedCounts(model, LOOKED_AT));
      held.release();
      await jobsDone(reader);
    }
    expect(await countsOf(reader, LOOKED_AT)).toEqual(expectedCounts(model, LOOKED_AT));
    expect(model.count('dst')).toBe(2 + 13);
  });

  it('never counts a subtree being deleted', async () => {
    const { pause, writer, reader, model } = await writerAndReader();
    // The job's first deletion, once its acceptance detached the subtree: every item still there.
    const held = pause.next(
      (command, input) =>
        command.startsWith('TransactWrite') && transactItems(input).some((item) => item.Delete?.Key?.sk === 'NODE'),
    );
    const answer = writer.gql('mutation { deleteNode(id: "m") { deletedCount job { kind } } }');
    await held.reached;
    model.delete('m');
    expect(okData(await reader.gql('{ node(id: "m") { id } }')).node).toBeNull();
    expect(await countsOf(reader, ['src', 'src.x'])).toEqual(expectedCounts(model, ['src', 'src.x']));
    held.release();
    expect(okData(await answer).deleteNode).toEqual({ deletedCount: 13, job: { kind: 'DELETE' } });
    expect(await countsOf(reader, ['src', 'dst'])).toEqual(expectedCounts(model, ['src', 'dst']));
  });

  it('never counts the nodes of an import before they join the tree', async () => {
    const { pause, writer, reader, model } = await writerAndReader();
    // 3 top nodes of 3 children each: a top node's edge, if it were read, would bring its children.
    const nodes: Array<{ id: string; name: string; parentId?: string }> = [0, 1, 2].flatMap((i) => [
      { id: `new.${i}`, name: `new ${i}` },
      ...[0, 1, 2].map((j) => ({ id: `new.${i}.${j}`, parentId: `new.${i}`, name: `new ${i}.${j}` })),
    ]);
    // Its second transaction of marked nodes: the first one's (the last top node's) are written, not joined.
    let seen = 0;
    const held = pause.next(
      (command, input) =>
        command.startsWith('TransactWrite') &&
        JSON.stringify(input.TransactItems).includes('"pending"') &&
        ++seen === 2,
    );
    const answer = writer.gql(
      'mutation($input: CreateNodesInput!) { createNodes(input: $input) { job { kind status } } }',
      { input: { parentId: 'd1', nodes } },
    );
    await held.reached;
    expect(await countsOf(reader, ['dst', 'd1'])).toEqual(expectedCounts(model, ['dst', 'd1']));
    held.release();
    expect(okData(await answer).createNodes.job).toEqual({ kind: 'IMPORT', status: 'DONE' });
    for (const { id, parentId } of nodes) model.move(id, parentId ?? 'd1');
    expect(await countsOf(reader, ['dst', 'd1'])).toEqual(expectedCounts(model, ['dst', 'd1']));
  });
});
