import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import { OPTIONAL_FIELDS } from '../../../src/storage/treeStore.js';
import { loadInto } from '../../support/loadTree.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { okData, type TreeSpec } from '../../support/tree.js';

type MiddlewareStack = Parameters<NonNullable<DynamoOptions['middleware']>>[0];

/**
 * Reads that leave out the node fields no field of the operation names (name, data, version,
 * createdAt, updatedAt): their Queries of items carrying copies (edge items, closure rows, level
 * and range items) ask only for the other attributes, and the answer is the one a read of
 * everything gives, cursors and pageInfo included. A query naming one of those fields anywhere
 * (another node, a fragment, an alias, under @skip) reads it everywhere.
 */
const grow = (id: string, fanOuts: readonly number[], level = 0): TreeSpec => ({
  id,
  name: `name of ${id}`,
  data: { label: id, level },
  children: Array.from({ length: fanOuts[level] ?? 0 }, (_, i) => grow(`${id}.${i}`, fanOuts, level + 1)),
});
const TREE = grow('lo', [4, 3, 2]);
/** Six levels deep: the nodes far below its root (past the copies a strategy keeps whole). */
const DEEP = grow('ld', [2, 2, 2, 2, 2, 2]);

const PAGE = '{ pageInfo { hasNextPage endCursor } edges { cursor node { id } } }';
const READS = [
  `{ node(id: "lo") { children(first: 3) { pageInfo { hasNextPage endCursor } edges { cursor node { id ` +
    `children(first: 2) { pageInfo { hasNextPage } edges { cursor node { id children ${PAGE} } } } } } } } }`,
  `{ node(id: "lo") { descendants(maxDepth: 3, first: 20) ${PAGE} } }`,
  `{ node(id: "lo") { descendants(minDepth: 2, first: 7) ${PAGE} } }`,
  `{ node(id: "lo.1") { descendants(order: PREORDER, first: 5) ${PAGE} } }`,
  `{ node(id: "lo.2") { children(first: 2) ${PAGE} } }`,
  `{ node(id: "lo") { children(last: 3) ${PAGE} } }`,
  `{ roots(first: 5) ${PAGE} }`,
  `{ node(id: "ld") { descendants(minDepth: 4, first: 40) ${PAGE} } }`,
];
/** The same reads, naming every field on the nodes (nothing left out). */
const whole = (query: string) => query.replaceAll('node { id', 'node { id name data version createdAt updatedAt');

/** Removes the fields `whole` added, to compare the answers. */
function idsOnly(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(idsOnly);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !(OPTIONAL_FIELDS as readonly string[]).includes(key))
      .map(([key, v]) => [key, idsOnly(v)]),
  );
}

describe.each(STRATEGIES_UNDER_TEST)('%s: reads that leave out the fields no one reads', (strategy) => {
  let server: TestServer;
  /** The ProjectionExpression of every Query sent (null: none), with its names resolved. */
  const projections: Array<string[] | null> = [];
  const record = (stack: MiddlewareStack) =>
    stack.add(
      (next, context) => async (args) => {
        const input = args.input as {
          ProjectionExpression?: string;
          ExpressionAttributeNames?: Record<string, string>;
        };
        if (context.commandName === 'QueryCommand') {
          const names = input.ExpressionAttributeNames ?? {};
          projections.push(input.ProjectionExpression?.split(', ').map((name) => names[name] ?? name) ?? null);
        }
        return next(args);
      },
      { step: 'initialize', name: 'testProjections' },
    );

  beforeAll(async () => {
    server = await startTestServer({ strategy, middleware: record });
    await loadInto(server, [TREE, DEEP]);
  }, 120_000);
  afterAll(() => server?.close());

  it('answers as a read of every field does, cursors and pageInfo included', async () => {
    for (const query of READS) {
      const full = okData(await server.gql(whole(query)));
      projections.length = 0;
      const lean = okData(await server.gql(query));
      expect(lean).toEqual(idsOnly(full));
      const asked = projections.filter((names): names is string[] => names !== null);
      for (const names of asked) for (const field of OPTIONAL_FIELDS) expect(names).not.toContain(field);
      // Edge items and the strategies' items alike carry copies: the read asks for less than them.
      expect(asked.length).toBeGreaterThan(0);
    }
  });

  it('reads a field named anywhere in the operation, for every node', async () => {
    const query = `
      query($skip: Boolean!) {
        other: node(id: "lo.3") { version }
        node(id: "lo") {
          descendants(maxDepth: 2, first: 30) { nodes { id ...Labels label: name @skip(if: $skip) } }
          children(first: 2) { nodes { id children(first: 2) { nodes { id ... on Node { createdAt } } } } }
        }
      }
      fragment Labels on Node { data }`;
    const data = okData(await server.gql(query, { skip: true }));
    expect(data.other.version).toEqual(expect.any(Number));
    const nodes = data.node.descendants.nodes as Array<{ id: string; data: { label: string }; label?: string }>;
    expect(nodes).toHaveLength(4 + 12);
    for (const node of nodes) {
      expect(node.data.label).toBe(node.id);
      expect(node.label).toBeUndefined();
    }
    const grandchildren = data.node.children.nodes.flatMap(
      (child: { children: { nodes: Array<{ createdAt: string }> } }) => child.children.nodes,
    );
    expect(grandchildren).toHaveLength(4);
    for (const node of grandchildren) expect(Date.parse(node.createdAt)).toBeGreaterThan(0);
    const named = okData(await server.gql(query, { skip: false })).node.descendants.nodes;
    for (const node of named) expect(node.label).toBe(`name of ${node.id}`);
  });

  it("reads a list's childCounts when its nodes' fields read them, and only its own", async () => {
    const query = `{ node(id: "ld") {
      lean: descendants(minDepth: 4, first: 200) { nodes { id } }
      counted: descendants(minDepth: 4, first: 200) { nodes { id childCount } }
      nested: descendants(minDepth: 5, maxDepth: 5, first: 3) { nodes { id children { nodes { id } } } }
    } }`;
    const node = okData(await server.gql(query)).node;
    const depthOf = (id: string) => id.split('.').length - 1;
    expect(node.lean.nodes).toHaveLength(16 + 32 + 64);
    expect(node.counted.nodes.map((n: { id: string }) => n.id)).toEqual(
      node.lean.nodes.map((n: { id: string }) => n.id),
    );
    for (const { id, childCount } of node.counted.nodes) expect(childCount).toBe(depthOf(id) < 6 ? 2 : 0);
    for (const { id, children } of node.nested.nodes)
      expect(children.nodes.map((n: { id: string }) => n.id)).toEqual([`${id}.0`, `${id}.1`]);
    // A node of a lean list is no node of the request's cache: looked up by id, it is whole.
    const both = okData(
      await server.gql(
        '{ node(id: "ld") { descendants(minDepth: 6, first: 64) { nodes { id } } } ' +
          'other: node(id: "ld.1.0.1.0.1.0") { childCount } }',
      ),
    );
    expect(both.node.descendants.nodes).toHaveLength(64);
    expect(both.other.childCount).toBe(0);
  });

  it('reads whole nodes in a mutation', async () => {
    projections.length = 0;
    const response = await server.gql(
      'mutation { updateNode(id: "lo.0", data: { label: "lo.0", level: 1 }) ' +
        '{ id descendants(maxDepth: 1) { nodes { id } } } }',
    );
    expect(okData(response).updateNode.descendants.nodes).toHaveLength(3);
    expect(projections.every((names) => names === null)).toBe(true);
  });
});
