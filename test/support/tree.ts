import { expect } from 'vitest';
import type { GraphQLResponse, TestServer } from './server.js';

/**
 * Fixtures for the contract suite: trees are built through the public GraphQL API only, so the
 * suite holds for every storage strategy. Sibling order matters, so the children of one parent
 * are created one after the other; different parents are filled in parallel.
 */

/** Every scalar field of Node. */
export const NODE_FIELDS = 'id name parentId rootId depth position childCount data version createdAt updatedAt';

export interface NodeView {
  id: string;
  name: string;
  parentId: string | null;
  rootId: string;
  depth: number;
  position: string;
  childCount: number;
  data: Record<string, unknown> | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface PageView {
  nodes: Array<{ id: string; depth?: number }>;
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export const CONNECTION_FIELDS = 'nodes { id depth } edges { cursor node { id } } pageInfo { hasNextPage endCursor }';

/** A tree to build: `id` is used verbatim, `name` defaults to the id. */
export interface TreeSpec {
  id: string;
  name?: string;
  data?: Record<string, unknown>;
  children?: TreeSpec[];
  /** A sibling position of its own (loadTree only; default: evenly spaced ones). */
  position?: string;
}

/** Fails the test with the whole response unless it has data and no errors. */
export function okData<T>(response: GraphQLResponse<T>): T {
  if (response.status !== 200 || response.body.errors || !response.body.data) {
    throw new Error(`expected a successful response, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** What an expected error says besides its code: its message, and its typed details (`extensions`). */
export interface ExpectedError {
  message: string | RegExp;
  details?: Record<string, unknown>;
}

/**
 * Asserts one error with this public code, and no data for the field (`data` null or absent);
 * its message (whole, or matching) and its typed details (those given, exactly).
 */
export function expectError(response: GraphQLResponse, code: string, expected: ExpectedError): void {
  const errors = response.body.errors ?? [];
  expect(
    errors.map((error) => error.extensions?.code),
    `response: ${JSON.stringify(response.body)}`,
  ).toEqual([code]);
  const data = response.body.data;
  if (data) for (const value of Object.values(data)) expect(value).toBeNull();
  const [error] = errors;
  if (typeof expected.message === 'string') expect(error!.message).toBe(expected.message);
  else expect(error!.message).toMatch(expected.message);
  if (expected.details) {
    const given = Object.fromEntries(Object.keys(expected.details).map((key) => [key, error!.extensions?.[key]]));
    expect(given).toEqual(expected.details);
  }
}

const CREATE = `mutation Create($input: CreateNodeInput!) { createNode(input: $input) { ${NODE_FIELDS} } }`;

export interface CreateInput {
  id?: string;
  parentId?: string | null;
  name?: string;
  data?: Record<string, unknown> | null;
  before?: string;
  after?: string;
}

export function createNodeRaw(server: TestServer, input: CreateInput): Promise<GraphQLResponse> {
  return server.gql(CREATE, { input: { name: input.id ?? 'node', ...input } });
}

export async function createNode(server: TestServer, input: CreateInput): Promise<NodeView> {
  const data = okData<{ createNode: NodeView }>(await createNodeRaw(server, input));
  return data.createNode;
}

export interface BuildOptions {
  /**
   * false: create siblings concurrently too, for big fixtures whose sibling order does not
   * matter (concurrent inserts at the end of one parent may tie, and then sort by id).
   */
  ordered?: boolean;
}

/**
 * Creates `spec` (under `parentId`, or as a new root); siblings in order, subtrees in parallel.
 * The children of a node are created together, by `createNodes` calls that each fit in one
 * transaction (no job, so no open job changes what later reads cost): a fixture's nodes and
 * change records are those of a `createNode` per node, at a fraction of its requests.
 */
export async function buildTree(
  server: TestServer,
  spec: TreeSpec,
  parentId: string | null = null,
  options: BuildOptions = {},
): Promise<void> {
  const created = await createNode(server, { ...newNode(spec), parentId });
  await buildChildren(server, spec.id, created.depth + 1, spec.children ?? [], options.ordered ?? true);
}

const CREATE_NODES = `mutation CreateNodes($input: CreateNodesInput!) { createNodes(input: $input) { job { id } } }`;

const newNode = (spec: TreeSpec) => ({
  id: spec.id,
  name: spec.name ?? spec.id,
  ...(spec.data ? { data: spec.data } : {}),
});

/**
 * How many new leaves at `depth` one transaction of `items` holds under every strategy, at the
 * least: a node writes its item, its edge, its change record and history copy, and under
 * `closure` a row per ancestor; the parent's items and the chain's guards come once.
 */
const leavesPerTransaction = (items: number, depth: number) => Math.floor((items - 8 - depth) / (5 + depth));

async function buildChildren(
  server: TestServer,
  parentId: string,
  depth: number,
  children: TreeSpec[],
  ordered: boolean,
): Promise<void> {
  if (children.length === 0) return;
  const size = Math.max(leavesPerTransaction(server.config.transactionItems, depth), 1);
  const groups: TreeSpec[][] = [];
  for (let i = 0; i < children.length; i += size) groups.push(children.slice(i, i + size));
  const create = async (group: TreeSpec[]) => {
    if (size === 1) return void (await createNode(server, { ...newNode(group[0]!), parentId }));
    const result = okData(await server.gql(CREATE_NODES, { input: { parentId, nodes: group.map(newNode) } }));
    if (result.createNodes.job) throw new Error(`buildTree: ${group.length} children of ${parentId} took a job`);
  };
  if (ordered) {
    for (const group of groups) await create(group);
  } else {
    await Promise.all(groups.map(create));
  }
  await Promise.all(children.map((child) => buildChildren(server, child.id, depth + 1, child.children ?? [], ordered)));
}

/** A full tree: level i below the root has fanOuts[i] children per node; ids `${root}.i.j...`. */
export function fullTree(root: string, fanOuts: readonly number[]): TreeSpec {
  const grow = (id: string, level: number): TreeSpec => ({
    id,
    children: Array.from({ length: fanOuts[level] ?? 0 }, (_, i) => grow(`${id}.${i}`, level + 1)),
  });
  return grow(root, 0);
}

/** Every id of a spec, root first, depth-first. */
export function specIds(spec: TreeSpec): string[] {
  return [spec.id, ...(spec.children ?? []).flatMap(specIds)];
}

/** A chain root → ... of `length` nodes (ids `${prefix}-0` ..), created sequentially. */
export async function buildChain(
  server: TestServer,
  prefix: string,
  length: number,
  parentId: string | null = null,
): Promise<string[]> {
  const ids: string[] = [];
  let parent = parentId;
  for (let i = 0; i < length; i++) {
    const id = `${prefix}-${i}`;
    await createNode(server, { id, parentId: parent });
    ids.push(id);
    parent = id;
  }
  return ids;
}

export async function getNode(server: TestServer, id: string): Promise<NodeView | null> {
  const data = okData<{ node: NodeView | null }>(
    await server.gql(`query($id: ID!) { node(id: $id) { ${NODE_FIELDS} } }`, { id }),
  );
  return data.node;
}

/** Ids of the direct children, in sibling order (all pages). */
export async function childIds(server: TestServer, id: string): Promise<string[]> {
  const data = okData<{ node: { children: PageView } | null }>(
    await server.gql(
      'query($id: ID!) { node(id: $id) { children(first: 1000) { nodes { id } pageInfo { hasNextPage } } } }',
      { id },
    ),
  );
  if (!data.node) throw new Error(`node ${id} is missing`);
  expect(data.node.children.pageInfo.hasNextPage).toBe(false);
  return data.node.children.nodes.map((node) => node.id);
}

export async function rootIds(server: TestServer): Promise<string[]> {
  const data = okData<{ roots: PageView }>(
    await server.gql('{ roots(first: 1000) { nodes { id } pageInfo { hasNextPage } } }'),
  );
  expect(data.roots.pageInfo.hasNextPage).toBe(false);
  return data.roots.nodes.map((node) => node.id);
}

export interface TreeSnapshot {
  roots: string[];
  nodes: NodeView[];
  children: Record<string, string[]>;
}

/**
 * Everything a client can see of the trees under `roots`: every node's fields (self included),
 * every child list in order, and the list of roots. Taken before and after a refused mutation,
 * two snapshots must be equal.
 */
export async function snapshot(server: TestServer, roots: string[]): Promise<TreeSnapshot> {
  const nodes: NodeView[] = [];
  for (const root of roots) {
    const data = okData<{ node: { descendants: { nodes: NodeView[]; pageInfo: { hasNextPage: boolean } } } | null }>(
      await server.gql(
        'query($id: ID!) { node(id: $id) { descendants(minDepth: 0, first: 1000) { ' +
          `nodes { ${NODE_FIELDS} } pageInfo { hasNextPage } } } }`,
        { id: root },
      ),
    );
    if (!data.node) throw new Error(`root ${root} is missing`);
    expect(data.node.descendants.pageInfo.hasNextPage).toBe(false);
    nodes.push(...data.node.descendants.nodes);
  }
  const lists = okData<{
    nodes: Array<{ id: string; children: { nodes: Array<{ id: string }>; pageInfo: { hasNextPage: boolean } } } | null>;
  }>(
    await server.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id children(first: 1000) { nodes { id } pageInfo { hasNextPage } } } }',
      { ids: nodes.map((node) => node.id) },
    ),
  );
  const children: Record<string, string[]> = {};
  for (const entry of lists.nodes) {
    if (!entry) throw new Error('a node listed by descendants is missing from nodes(ids:)');
    expect(entry.children.pageInfo.hasNextPage).toBe(false);
    children[entry.id] = entry.children.nodes.map((child) => child.id);
  }
  return { roots: await rootIds(server), nodes, children };
}

/** Cursors that no server issued: garbage, plausible-looking JSON, and a tampered real one. */
/** How a page refuses a cursor it did not issue (one of `forgedCursors`). */
export function forgedCursorRefusal(after: string): ExpectedError {
  return { message: `the cursor is not one issued by this list (got "${after.slice(0, 40)}")`, details: {} };
}

/** How a page refuses a `first` outside 1..1000. */
export function firstRefusal(first: number): ExpectedError {
  return { message: `first must be in 1..1000, got ${first}`, details: { field: 'first' } };
}

export function forgedCursors(real: string): string[] {
  const middle = Math.floor(real.length / 2);
  const swapped = real[middle] === 'A' ? 'B' : 'A';
  return [
    'garbage',
    Buffer.from(JSON.stringify({ position: 'a0', id: 'm-001', sk: 'a0#m-001' })).toString('base64'),
    Buffer.from(JSON.stringify({ offset: 3 })).toString('base64url'),
    `${real.slice(0, middle)}${swapped}${real.slice(middle + 1)}`,
  ];
}

/**
 * The tree under `root` agrees with itself: every node's depth is its parent's plus one, its
 * rootId is `root`, every childCount is the number of nodes that name it as parent, and every
 * children list holds exactly those nodes. Returns the ids found.
 */
export async function expectConsistent(server: TestServer, root: string): Promise<string[]> {
  const { nodes, children } = await snapshot(server, [root]);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  expect(byId.size).toBe(nodes.length);
  for (const node of nodes) {
    expect(node.rootId).toBe(root);
    if (node.id === root) {
      expect(node.depth).toBe(0);
      expect(node.parentId).toBeNull();
    } else {
      const parent = byId.get(node.parentId ?? '');
      expect(parent, `parent of ${node.id}`).toBeDefined();
      expect(node.depth).toBe((parent?.depth ?? NaN) + 1);
    }
    const named = nodes.filter((other) => other.parentId === node.id).map((other) => other.id);
    expect([...(children[node.id] ?? [])].sort()).toEqual(named.sort());
    expect(node.childCount).toBe(named.length);
  }
  return nodes.map((node) => node.id);
}
