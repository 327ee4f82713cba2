/**
 * RELAY_NODE=true (with SCHEMA_PREFIX=Tree) through the real server: every node id the API shows
 * or takes is a global id (base64 of `TreeNode:<id>`, spelt out here apart from the code that
 * makes it), Relay's `node(id:)` refetches a TreeNode, bad global ids are BAD_USER_INPUT, and the
 * table keeps raw ids (a server without the option, on the same table, reads them). Then as a
 * federation subgraph behind an Apollo Gateway, beside an in-process Relay-style subgraph that
 * owns the supergraph's `node` and `nodes` and answers `{ __typename: "TreeNode", id }` for the
 * ids of tree nodes: the gateway fetches the rest from Canopy.
 */
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/npmStart.js';
import { startTestServer, uniqueTable, type TestServer } from '../../support/server.js';
import { expectError, okData } from '../../support/tree.js';
import { RELAY_SUBGRAPH_SDL } from '../../support/relaySubgraph.js';

/** A global id, by hand: Relay's convention. */
const g = (id: string, type = 'TreeNode') => Buffer.from(`${type}:${id}`, 'utf8').toString('base64');
const RELAY = { SCHEMA_PREFIX: 'Tree', RELAY_NODE: 'true' };
const SHAPE = 'TreeNode\'s global id (base64 of "TreeNode:<id>", <id> matching ^[A-Za-z0-9_.:-]{1,64}$)';

const CREATE = 'mutation ($input: TreeCreateNodeInput!) { treeCreateNode(input: $input) { id parentId rootId depth } }';
const CREATE_NODES =
  'mutation ($input: TreeCreateNodesInput!) { ' +
  'treeCreateNodes(input: $input) { nodes { id parentId rootId } job { id kind nodeId } } }';
const CHILDREN = 'query ($id: ID!) { treeNode(id: $id) { children { nodes { id } } } }';
const REFETCH = 'query ($id: ID!) { node(id: $id) { __typename id ... on TreeNode { name ancestors { id } } } }';

describe('RELAY_NODE=true', () => {
  let relay: TestServer;
  let plain: TestServer;
  const childIds = async (id: string) =>
    okData(await relay.gql(CHILDREN, { id: g(id) })).treeNode.children.nodes.map((n: { id: string }) => n.id);

  beforeAll(async () => {
    const table = uniqueTable();
    // Transactions of 10 items: a createNodes of 15 nodes runs as an IMPORT job, whose nodeId is shown.
    relay = await startTestServer({ table, env: { ...RELAY, TRANSACTION_ITEMS: '10' } });
    plain = await startTestServer({ table, verifyOnClose: false });
  });
  afterAll(async () => {
    await plain?.close();
    await relay?.close();
  });

  it('takes and shows global ids through create, read, move and delete; the table keeps raw ones', async () => {
    const root = okData(await relay.gql(CREATE, { input: { id: g('catalog'), name: 'Catalog' } }));
    expect(root.treeCreateNode).toEqual({ id: g('catalog'), parentId: null, rootId: g('catalog'), depth: 0 });
    const nodes = [
      { id: g('electronics'), name: 'Electronics' },
      { id: g('laptops'), parentId: g('electronics'), name: 'Laptops' },
      { id: g('phones'), parentId: g('electronics'), name: 'Phones' },
      { id: g('home'), name: 'Home' },
      { id: g('kitchen'), parentId: g('home'), name: 'Kitchen' },
    ];
    const created = okData(await relay.gql(CREATE_NODES, { input: { parentId: g('catalog'), nodes } }));
    expect(created.treeCreateNodes.nodes).toEqual(
      nodes.map((node) => ({ id: node.id, parentId: node.parentId ?? g('catalog'), rootId: g('catalog') })),
    );
    const between = { id: g('tablets'), parentId: g('electronics'), name: 'Tablets', before: g('phones') };
    expect(okData(await relay.gql(CREATE, { input: between })).treeCreateNode.parentId).toBe(g('electronics'));
    const last = { id: g('cameras'), parentId: g('electronics'), name: 'Cameras', after: g('phones') };
    expect(okData(await relay.gql(CREATE, { input: last })).treeCreateNode.rootId).toBe(g('catalog'));
    expect(await childIds('electronics')).toEqual([g('laptops'), g('tablets'), g('phones'), g('cameras')]);

    const renamed = await relay.gql('mutation ($id: ID!) { treeUpdateNode(id: $id, name: "Slates") { id name } }', {
      id: g('tablets'),
    });
    expect(okData(renamed).treeUpdateNode).toEqual({ id: g('tablets'), name: 'Slates' });
    const MOVE =
      'mutation ($id: ID!, $to: ID, $before: ID, $after: ID) { ' +
      'treeReparent(id: $id, newParentId: $to, before: $before, after: $after) { ' +
      'id parentId rootId depth ancestors { id } } }';
    const moved = okData(await relay.gql(MOVE, { id: g('tablets'), to: g('home'), after: g('kitchen') }));
    expect(moved.treeReparent).toEqual({
      id: g('tablets'),
      parentId: g('home'),
      rootId: g('catalog'),
      depth: 2,
      ancestors: [{ id: g('catalog') }, { id: g('home') }],
    });
    okData(await relay.gql(MOVE, { id: g('tablets'), to: g('home'), before: g('kitchen') }));
    expect(await childIds('home')).toEqual([g('tablets'), g('kitchen')]);
    const lookups = await relay.gql('query ($ids: [ID!]!) { treeNodes(ids: $ids) { id parentId } }', {
      ids: [g('tablets'), g('gone')],
    });
    expect(okData(lookups).treeNodes).toEqual([{ id: g('tablets'), parentId: g('home') }, null]);

    // The same table through a server without RELAY_NODE: raw ids, stored as they always were.
    const stored = await plain.gql('{ node(id: "tablets") { id parentId rootId name } }');
    expect(okData(stored).node).toEqual({ id: 'tablets', parentId: 'home', rootId: 'catalog', name: 'Slates' });

    const DELETE = 'mutation ($id: ID!) { treeDeleteNode(id: $id) { deletedCount } }';
    expect(okData(await relay.gql(DELETE, { id: g('tablets') })).treeDeleteNode).toEqual({ deletedCount: 1 });
    expect(okData(await relay.gql('query ($id: ID!) { treeNode(id: $id) { id } }', { id: g('tablets') }))).toEqual({
      treeNode: null,
    });
  });

  it("shows a job's node by its global id and keeps the job's own id", async () => {
    okData(await relay.gql(CREATE, { input: { id: g('bulk'), name: 'Bulk' } }));
    const nodes = Array.from({ length: 15 }, (_, i) => ({ id: g(`bulk.${i}`), name: `Item ${i}` }));
    const { treeCreateNodes } = okData(await relay.gql(CREATE_NODES, { input: { parentId: g('bulk'), nodes } }));
    expect(treeCreateNodes.job).toEqual({ id: expect.any(String), kind: 'IMPORT', nodeId: g('bulk') });
    const job = await relay.gql('query ($id: ID!) { treeJob(id: $id) { id nodeId } }', { id: treeCreateNodes.job.id });
    expect(okData(job).treeJob).toEqual({ id: treeCreateNodes.job.id, nodeId: g('bulk') });
    const deleted = await relay.gql('mutation ($id: ID!) { treeDeleteNode(id: $id) { deletedCount job { nodeId } } }', {
      id: g('bulk'),
    });
    expect(okData(deleted).treeDeleteNode).toEqual({ deletedCount: 16, job: { nodeId: g('bulk') } });
  });

  it("refetches with Relay's node(id:) and nodes(ids:); an id of another type reads as null", async () => {
    expect(okData(await relay.gql(REFETCH, { id: g('laptops') }))).toEqual({
      node: {
        __typename: 'TreeNode',
        id: g('laptops'),
        name: 'Laptops',
        ancestors: [{ id: g('catalog') }, { id: g('electronics') }],
      },
    });
    expect(okData(await relay.gql(REFETCH, { id: g('42', 'User') }))).toEqual({ node: null });
    const many = await relay.gql('query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on TreeNode { name } } }', {
      ids: [g('phones'), g('42', 'User'), g('gone'), g('home')],
    });
    expect(okData(many).nodes).toEqual([
      { id: g('phones'), name: 'Phones' },
      null,
      null,
      { id: g('home'), name: 'Home' },
    ]);
  });

  it('refuses a malformed global id, or one of another type, with BAD_USER_INPUT naming the argument', async () => {
    expectError(await relay.gql('{ treeNode(id: "laptops") { id } }'), 'BAD_USER_INPUT', {
      message: `id must be a ${SHAPE}, got "laptops"`,
      details: { field: 'id' },
    });
    expectError(await relay.gql('{ node(id: "laptops") { id } }'), 'BAD_USER_INPUT', {
      message: `id must be a ${SHAPE}, got "laptops"`,
    });
    expectError(await relay.gql(`{ treeNode(id: "${g('42', 'User')}") { id } }`), 'BAD_USER_INPUT', {
      message: `id must be a ${SHAPE}, got the global id of a User: "${g('42', 'User')}"`,
    });
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      [
        'mutation ($id: ID!, $to: ID) { treeReparent(id: $id, newParentId: $to) { id } }',
        { id: g('laptops'), to: g('1', 'User') },
        'newParentId',
      ],
      [
        'mutation ($input: TreeCreateNodeInput!) { treeCreateNode(input: $input) { id } }',
        { input: { name: 'Lost', parentId: 'catalog' } },
        'parentId',
      ],
      [
        CREATE_NODES,
        {
          input: {
            nodes: [
              { id: g('a'), name: 'A' },
              { parentId: 'a', name: 'B' },
            ],
          },
        },
        'parentId',
      ],
      ['query ($ids: [ID!]!) { treeNodes(ids: $ids) { id } }', { ids: [g('laptops'), 'phones'] }, 'ids'],
      ['mutation ($id: ID!) { treeDeleteNode(id: $id) { deletedCount } }', { id: `${g('laptops')}!` }, 'id'],
    ];
    for (const [query, variables, field] of refusals) {
      expectError(await relay.gql(query, variables), 'BAD_USER_INPUT', { message: /global id/, details: { field } });
    }
    // Nothing of it was applied.
    expect(await childIds('electronics')).toEqual([g('laptops'), g('phones'), g('cameras')]);
  });

  it("opens GraphiQL on examples whose variables are the demo tree's global ids", async () => {
    const page = await fetch(`${relay.url}/graphql`, { headers: { accept: 'text/html' } });
    const html = await page.text();
    expect(html).toContain('treeNode(id: $id)');
    for (const id of ['laptops', 'tablets', 'phones', 'headphones']) {
      expect(html).toContain(g(id));
      expect(html).not.toContain(`\\"${id}\\"`);
    }
    // A grant's principal is no node's id.
    expect(html).toContain('\\"principal\\": \\"sub:ana\\"');
  });

  it('names the node of a refusal by its global id', async () => {
    const missing = await relay.gql('mutation ($id: ID!) { treeReparent(id: $id, newParentId: null) { id } }', {
      id: g('gone'),
    });
    expectError(missing, 'NOT_FOUND', { message: `node "${g('gone')}" does not exist`, details: { id: g('gone') } });
    const taken = await relay.gql(CREATE, { input: { id: g('laptops'), name: 'Again' } });
    expectError(taken, 'ALREADY_EXISTS', {
      message: `a node with id "${g('laptops')}" already exists`,
      details: { id: g('laptops') },
    });
    // A structural precondition: the node and its parents by their global ids ('' still a root).
    okData(await relay.gql(CREATE, { input: { id: g('pc'), name: 'Parent' } }));
    okData(await relay.gql(CREATE, { input: { id: g('pc-child'), parentId: g('pc'), name: 'Child' } }));
    const DELETE_FROM =
      'mutation ($id: ID!, $from: ID) { treeDeleteNode(id: $id, expectedParentId: $from) { deletedCount } }';
    expectError(await relay.gql(DELETE_FROM, { id: g('pc-child'), from: '' }), 'PARENT_CONFLICT', {
      message: `node "${g('pc-child')}" is under "${g('pc')}", expected a root`,
      details: { id: g('pc-child'), currentParentId: g('pc') },
    });
    expectError(await relay.gql(DELETE_FROM, { id: g('pc'), from: g('pc-child') }), 'PARENT_CONFLICT', {
      message: `node "${g('pc')}" is a root, expected under "${g('pc-child')}"`,
      details: { id: g('pc'), currentParentId: null },
    });
    // Elsewhere the empty string is no global id.
    expectError(await relay.gql(DELETE_FROM, { id: '', from: '' }), 'BAD_USER_INPUT', {
      message: /^id must be a /,
      details: { field: 'id' },
    });
    expect(okData(await relay.gql(DELETE_FROM, { id: g('pc'), from: '' }))).toEqual({
      treeDeleteNode: { deletedCount: 2 },
    });
  });
});

/** The Relay subgraph: users, and the supergraph's node and nodes for users and tree nodes alike. */
const USERS = [{ id: 'alice', name: 'Alice', favourite: 'laptops' }];

/** What a Relay subgraph's node(id:) answers: its own objects, a reference for the others it knows. */
function objectOf(globalId: string) {
  const text = Buffer.from(globalId, 'base64').toString('utf8');
  const [type, id] = [text.slice(0, text.indexOf(':')), text.slice(text.indexOf(':') + 1)];
  if (type === 'TreeNode') return { __typename: 'TreeNode', id: globalId };
  const user = type === 'User' ? USERS.find((candidate) => candidate.id === id) : undefined;
  return user ? { __typename: 'User', ...user, id: globalId } : null;
}

const relaySchema = buildSubgraphSchema({
  typeDefs: parse(RELAY_SUBGRAPH_SDL),
  resolvers: {
    Query: {
      node: (_: unknown, { id }: { id: string }) => objectOf(id),
      nodes: (_: unknown, { ids }: { ids: string[] }) => ids.map(objectOf),
    },
    Node: { __resolveType: (object: { __typename: string }) => object.__typename },
    User: {
      __resolveReference: ({ id }: { id: string }) => objectOf(id),
      favourite: (user: { favourite: string }) => ({ __typename: 'TreeNode', id: g(user.favourite) }),
    },
  },
});

describe('RELAY_NODE=true under NODE_TYPES', () => {
  let typed: TestServer;
  beforeAll(async () => {
    typed = await startTestServer({ env: { ...RELAY, NODE_TYPES: `${REPO_ROOT}schema/catalog.graphql` } });
  });
  afterAll(() => typed?.close());

  it('gives every node type global ids, refetched by Relay and found by path', async () => {
    const create = (id: string, parentId: string | null, typedInput: string) =>
      typed.gql(
        `mutation ($id: ID!, $parentId: ID) { treeCreateNode(input: { id: $id, parentId: $parentId, name: "N", ` +
          `${typedInput} }) { __typename id } }`,
        { id: g(id), parentId: parentId && g(parentId) },
      );
    expect(okData(await create('shop', null, 'category: { slug: "shop" }')).treeCreateNode).toEqual({
      __typename: 'TreeCategory',
      id: g('shop'),
    });
    okData(await create('lamp', 'shop', 'product: { slug: "lamp", price: 9 }'));
    const refetched = await typed.gql(
      'query ($id: ID!) { node(id: $id) { __typename id ... on TreeProduct { price parentId } } }',
      { id: g('lamp') },
    );
    expect(okData(refetched).node).toEqual({ __typename: 'TreeProduct', id: g('lamp'), price: 9, parentId: g('shop') });
    const found = await typed.gql('query ($root: ID!) { treeNodeByPath(rootId: $root, path: "lamp") { id } }', {
      root: g('shop'),
    });
    expect(okData(found).treeNodeByPath).toEqual({ id: g('lamp') });
  });
});

describe('RELAY_NODE=true behind an Apollo Gateway, beside a Relay subgraph', () => {
  let canopy: TestServer;
  let relaySubgraph: ApolloServer;
  let gateway: ApolloServer;

  async function viaGateway<T = any>(query: string, variables?: Record<string, unknown>): Promise<T> {
    const response = await gateway.executeOperation({ query, variables });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const { data, errors } = response.body.singleResult;
    expect(errors, JSON.stringify(errors)).toBeUndefined();
    return data as T;
  }

  beforeAll(async () => {
    canopy = await startTestServer({ env: { ...RELAY, FEDERATION: 'true' } });
    const tree = [
      { id: g('catalog'), name: 'Catalog', parentId: null },
      { id: g('electronics'), name: 'Electronics', parentId: g('catalog') },
      { id: g('laptops'), name: 'Laptops', parentId: g('electronics') },
    ];
    for (const input of tree) okData(await canopy.gql(CREATE, { input }));
    relaySubgraph = new ApolloServer({ schema: relaySchema });
    const { url } = await startStandaloneServer(relaySubgraph, { listen: { port: 0 } });
    gateway = new ApolloServer({
      gateway: new ApolloGateway({
        supergraphSdl: new IntrospectAndCompose({
          subgraphs: [
            { name: 'canopy', url: `${canopy.url}/graphql` },
            { name: 'relay', url },
          ],
        }),
      }),
    });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway?.stop();
    await relaySubgraph?.stop();
    await canopy?.close();
  });

  it("refetches a TreeNode through the Relay subgraph's node(id:), its fields from Canopy", async () => {
    const data = await viaGateway(
      'query ($id: ID!) { node(id: $id) { __typename id ... on TreeNode { name depth ancestors { id name } } } }',
      { id: g('laptops') },
    );
    expect(data).toEqual({
      node: {
        __typename: 'TreeNode',
        id: g('laptops'),
        name: 'Laptops',
        depth: 2,
        ancestors: [
          { id: g('catalog'), name: 'Catalog' },
          { id: g('electronics'), name: 'Electronics' },
        ],
      },
    });
  });

  it('answers nodes(ids:) of both subgraphs in order, and crosses from a user to the tree', async () => {
    const data = await viaGateway(
      'query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on User { name favourite { name parent { id } } } ' +
        '... on TreeNode { name childCount } } }',
      { ids: [g('alice', 'User'), g('electronics'), g('nobody', 'User')] },
    );
    expect(data).toEqual({
      nodes: [
        { id: g('alice', 'User'), name: 'Alice', favourite: { name: 'Laptops', parent: { id: g('electronics') } } },
        { id: g('electronics'), name: 'Electronics', childCount: 1 },
        null,
      ],
    });
  });

  it('reads a TreeNode id that Canopy does not hold as null, as Relay expects', async () => {
    // The Relay subgraph answers a reference by the id's type alone; Canopy's _entities finds no
    // such node, and the gateway completes the refetch as null (no error).
    const data = await viaGateway('query ($id: ID!) { node(id: $id) { id ... on TreeNode { name } } }', {
      id: g('gone'),
    });
    expect(data).toEqual({ node: null });
  });

  it("resolves the gateway's references by global id: another type's is null, a raw id refused", async () => {
    const ENTITIES = 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on TreeNode { id name } } }';
    const representations = [g('laptops'), g('1', 'User')].map((id) => ({ __typename: 'TreeNode', id }));
    const found = await canopy.gql(ENTITIES, { r: representations });
    expect(okData(found)).toEqual({ _entities: [{ id: g('laptops'), name: 'Laptops' }, null] });
    const raw = await canopy.gql(ENTITIES, { r: [{ __typename: 'TreeNode', id: 'laptops' }] });
    expect(raw.body.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });

  it("serves Canopy's own lookups through the gateway with global ids", async () => {
    const data = await viaGateway('query ($id: ID!) { treeNode(id: $id) { id parentId rootId } }', {
      id: g('electronics'),
    });
    expect(data).toEqual({ treeNode: { id: g('electronics'), parentId: g('catalog'), rootId: g('catalog') } });
  });
});
