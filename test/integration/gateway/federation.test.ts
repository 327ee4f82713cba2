/**
 * Apollo Federation 2: with FEDERATION=true Canopy is a subgraph whose Node is an entity keyed by
 * id. A second subgraph ("owners", in process) references nodes and extends Node with its owners;
 * an Apollo Gateway composes both (IntrospectAndCompose) and runs queries that cross them.
 * The gateway drops the subgraphs' extensions, so the DynamoDB calls behind a gateway query are
 * counted by a middleware on Canopy's SDK client.
 */
import { readFileSync } from 'node:fs';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTreeSchema, printSubgraphSdl } from '../../../src/graphql/buildSchema.js';
import { printTreeSubgraphSchema } from '../../../src/graphql/federation.js';
import { CallCounter } from '../../support/callCounter.js';
import { REPO_ROOT } from '../../support/npmStart.js';
import { REVIEWS_SUBGRAPH_SDL } from '../../support/reviewsSubgraph.js';
import { plannedRequests, startTestServer, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';

const BULK = Array.from({ length: 100 }, (_, i) => `item-${String(i).padStart(3, '0')}`);

/** The owners subgraph: static data that references Canopy's nodes by id. */
const OWNERS = [
  { id: 'alice', name: 'Alice', nodeIds: ['laptops', 'kitchen'] },
  { id: 'bob', name: 'Bob', nodeIds: ['phones', 'laptops'] },
  { id: 'carol', name: 'Carol', nodeIds: ['electronics'] },
  { id: 'bulk-owner', name: 'Bulk', nodeIds: BULK },
];

const OWNERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])

  type Owner @key(fields: "id") {
    id: ID!
    name: String!
    nodes: [Node!]!
  }

  type Node @key(fields: "id") {
    id: ID!
    owners: [Owner!]!
  }

  type Query {
    owners: [Owner!]!
    owner(id: ID!): Owner
  }
`;

type OwnerRow = (typeof OWNERS)[number];

const ownersSchema = buildSubgraphSchema({
  typeDefs: parse(OWNERS_SDL),
  resolvers: {
    Query: {
      owners: () => OWNERS.filter((owner) => owner.id !== 'bulk-owner'),
      owner: (_: unknown, { id }: { id: string }) => OWNERS.find((owner) => owner.id === id) ?? null,
    },
    Owner: {
      __resolveReference: ({ id }: { id: string }) => OWNERS.find((owner) => owner.id === id) ?? null,
      nodes: (owner: OwnerRow) => owner.nodeIds.map((id) => ({ __typename: 'Node', id })),
    },
    Node: {
      __resolveReference: ({ id }: { id: string }) => ({ id }),
      owners: ({ id }: { id: string }) => OWNERS.filter((owner) => owner.nodeIds.includes(id)),
    },
  },
});

describe('Apollo Federation 2 subgraph (FEDERATION=true)', () => {
  const counter = new CallCounter();
  let canopy: TestServer;
  let owners: ApolloServer;
  let gateway: ApolloServer;

  async function viaGateway<T = any>(query: string): Promise<T> {
    const response = await gateway.executeOperation({ query });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const { data, errors } = response.body.singleResult;
    expect(errors, JSON.stringify(errors)).toBeUndefined();
    return data as T;
  }

  beforeAll(async () => {
    canopy = await startTestServer({ env: { FEDERATION: 'true' }, middleware: counter.install });
    await buildTree(canopy, {
      id: 'catalog',
      name: 'Catalog',
      children: [
        {
          id: 'electronics',
          name: 'Electronics',
          children: [
            { id: 'laptops', name: 'Laptops' },
            { id: 'phones', name: 'Phones' },
          ],
        },
        { id: 'home', name: 'Home', children: [{ id: 'kitchen', name: 'Kitchen' }] },
      ],
    });
    await buildTree(
      canopy,
      { id: 'bulk', name: 'Bulk', children: BULK.map((id) => ({ id, name: `Item ${id}` })) },
      null,
      {
        ordered: false,
      },
    );

    owners = new ApolloServer({ schema: ownersSchema });
    const { url: ownersUrl } = await startStandaloneServer(owners, { listen: { port: 0 } });

    gateway = new ApolloServer({
      gateway: new ApolloGateway({
        supergraphSdl: new IntrospectAndCompose({
          subgraphs: [
            { name: 'canopy', url: `${canopy.url}/graphql` },
            { name: 'owners', url: ownersUrl },
          ],
        }),
      }),
    });
    await gateway.start();
  });

  afterAll(async () => {
    await gateway?.stop();
    await owners?.stop();
    await canopy?.close();
  });

  it('serves the committed schema/subgraph.graphql (`npm run schema` after a type changes)', async () => {
    const committed = readFileSync(new URL('../../../schema/subgraph.graphql', import.meta.url), 'utf8');
    expect(printSubgraphSdl(), 'schema/subgraph.graphql is out of date: run `npm run schema`').toBe(committed);
    const { _service } = okData<{ _service: { sdl: string } }>(await canopy.gql('{ _service { sdl } }'));
    // The gateway composes `_service { sdl }`: the same subgraph, with the federation definitions.
    expect(printTreeSubgraphSchema(buildSubgraphSchema(parse(_service.sdl)))).toBe(committed);
    expect(committed).toMatch(/type Node\s+@key\(fields: "id"\)/);
  });

  it('leaves the schema without FEDERATION free of federation fields', () => {
    const fields = Object.keys(buildTreeSchema().getQueryType()!.getFields()).sort();
    expect(fields).toEqual(['deletedNodes', 'job', 'jobs', 'node', 'nodes', 'roots', 'sharedWithMe', 'treeHistory']);
  });

  it('answers a query that crosses both subgraphs through the gateway', async () => {
    const data = await viaGateway(/* GraphQL */ `
      {
        owners {
          id
          name
          nodes { id name ancestors { id } children { nodes { id } } }
        }
        node(id: "laptops") { name depth owners { name } }
      }
    `);
    const laptops = {
      id: 'laptops',
      name: 'Laptops',
      ancestors: [{ id: 'catalog' }, { id: 'electronics' }],
      children: { nodes: [] },
    };
    expect(data).toEqual({
      owners: [
        {
          id: 'alice',
          name: 'Alice',
          nodes: [
            laptops,
            { id: 'kitchen', name: 'Kitchen', ancestors: [{ id: 'catalog' }, { id: 'home' }], children: { nodes: [] } },
          ],
        },
        {
          id: 'bob',
          name: 'Bob',
          nodes: [
            {
              id: 'phones',
              name: 'Phones',
              ancestors: [{ id: 'catalog' }, { id: 'electronics' }],
              children: { nodes: [] },
            },
            laptops,
          ],
        },
        {
          id: 'carol',
          name: 'Carol',
          nodes: [
            {
              id: 'electronics',
              name: 'Electronics',
              ancestors: [{ id: 'catalog' }],
              children: { nodes: [{ id: 'laptops' }, { id: 'phones' }] },
            },
          ],
        },
      ],
      node: { name: 'Laptops', depth: 2, owners: [{ name: 'Alice' }, { name: 'Bob' }] },
    });
  });

  it('goes from Canopy to the owners and back', async () => {
    const data = await viaGateway(
      `{ node(id: "electronics") { children { nodes { id owners { name nodes { id parentId } } } } } }`,
    );
    expect(data).toEqual({
      node: {
        children: {
          nodes: [
            {
              id: 'laptops',
              owners: [
                {
                  name: 'Alice',
                  nodes: [
                    { id: 'laptops', parentId: 'electronics' },
                    { id: 'kitchen', parentId: 'home' },
                  ],
                },
                {
                  name: 'Bob',
                  nodes: [
                    { id: 'phones', parentId: 'electronics' },
                    { id: 'laptops', parentId: 'electronics' },
                  ],
                },
              ],
            },
            {
              id: 'phones',
              owners: [
                {
                  name: 'Bob',
                  nodes: [
                    { id: 'phones', parentId: 'electronics' },
                    { id: 'laptops', parentId: 'electronics' },
                  ],
                },
              ],
            },
          ],
        },
      },
    });
  });

  it('resolves the 100 node references of one gateway fetch in one wave of BatchGetItem', async () => {
    const before = counter.snapshot();
    const data = await viaGateway<{ owner: { nodes: Array<{ id: string; name: string }> } }>(
      `{ owner(id: "bulk-owner") { name nodes { id name } } }`,
    );
    expect(data).toEqual({ owner: { name: 'Bulk', nodes: BULK.map((id) => ({ id, name: `Item ${id}` })) } });
    // The gateway sends one `_entities` fetch with 100 representations; each reference resolver
    // loads through the request's nodeById loader, so all 100 ids go in one wave: the 100 keys
    // and the list of open jobs fill two BatchGetItem calls (99 ids or fewer take one).
    expect(counter.since(before)).toEqual({ BatchGetItemCommand: 2 });
  });

  it('costs one wave of DynamoDB requests for _entities with 100 representations, in their order', async () => {
    const representations = [...BULK].reverse().map((id) => ({ __typename: 'Node', id }));
    const response = await canopy.gql(
      'query ($representations: [_Any!]!) { ' +
        '_entities(representations: $representations) { ... on Node { id name parentId } } }',
      { representations },
    );
    const data = okData<{ _entities: Array<{ id: string; name: string; parentId: string }> }>(response);
    expect(data._entities).toEqual([...BULK].reverse().map((id) => ({ id, name: `Item ${id}`, parentId: 'bulk' })));
    expect(plannedRequests(response)).toBe(2);
  });

  it('answers null for a reference to a missing node and refuses a malformed id', async () => {
    const response = await canopy.gql(
      `query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Node { id } } }`,
      {
        representations: [
          { __typename: 'Node', id: 'laptops' },
          { __typename: 'Node', id: 'nope' },
        ],
      },
    );
    expect(okData(response)).toEqual({ _entities: [{ id: 'laptops' }, null] });
    const bad = await canopy.gql(
      `query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Node { id } } }`,
      { representations: [{ __typename: 'Node', id: 'not an id' }] },
    );
    expect(bad.body.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  });
});

/** The reviews subgraph's counts, by product id. */
const REVIEWS: Record<string, number> = { lamp: 12, desk: 3 };

describe('a node type extended by another subgraph through a gateway (NODE_TYPES, FEDERATION=true)', () => {
  let canopy: TestServer;
  let reviews: ApolloServer;
  let gateway: ApolloServer;

  beforeAll(async () => {
    canopy = await startTestServer({ env: { FEDERATION: 'true', NODE_TYPES: `${REPO_ROOT}schema/catalog.graphql` } });
    const create = (id: string, parentId: string | null, typed: string) =>
      canopy.gql(
        `mutation ($p: ID) { createNode(input: { id: "${id}", parentId: $p, name: "${id}", ${typed} }) { id } }`,
        {
          p: parentId,
        },
      );
    okData(await create('shop', null, 'category: { slug: "shop" }'));
    okData(await create('lamp', 'shop', 'product: { slug: "lamp", price: 12.5 }'));
    okData(await create('desk', 'shop', 'product: { slug: "desk", price: 140 }'));
    reviews = new ApolloServer({
      schema: buildSubgraphSchema({
        typeDefs: parse(REVIEWS_SUBGRAPH_SDL),
        resolvers: {
          Query: { topReviewed: () => Object.keys(REVIEWS).map((id) => ({ __typename: 'Product', id })) },
          Product: { reviewCount: ({ id }: { id: string }) => REVIEWS[id] ?? 0 },
        },
      }),
    });
    const { url } = await startStandaloneServer(reviews, { listen: { port: 0 } });
    gateway = new ApolloServer({
      gateway: new ApolloGateway({
        supergraphSdl: new IntrospectAndCompose({
          subgraphs: [
            { name: 'canopy', url: `${canopy.url}/graphql` },
            { name: 'reviews', url },
          ],
        }),
      }),
    });
    await gateway.start();
  });
  afterAll(async () => {
    await gateway?.stop();
    await reviews?.stop();
    await canopy?.close();
  });

  const viaGateway = async (query: string) => {
    const response = await gateway.executeOperation({ query });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    expect(response.body.singleResult.errors, JSON.stringify(response.body.singleResult.errors)).toBeUndefined();
    return response.body.singleResult.data as any;
  };

  it("reads Canopy's typed fields beside the other subgraph's, both ways", async () => {
    expect(await viaGateway('{ topReviewed { id name price reviewCount } }')).toEqual({
      topReviewed: [
        { id: 'lamp', name: 'lamp', price: 12.5, reviewCount: 12 },
        { id: 'desk', name: 'desk', price: 140, reviewCount: 3 },
      ],
    });
    const shop = await viaGateway(
      '{ node(id: "shop") { children { nodes { __typename id ... on Product { slug reviewCount } } } } }',
    );
    expect(shop.node.children.nodes).toEqual([
      { __typename: 'Product', id: 'lamp', slug: 'lamp', reviewCount: 12 },
      { __typename: 'Product', id: 'desk', slug: 'desk', reviewCount: 3 },
    ]);
  });
});
