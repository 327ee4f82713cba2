import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/npmStart.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { expectError, okData } from '../../support/tree.js';
import { runTree } from '../../support/treeCli.js';

/**
 * Typed nodes (NODE_TYPES=schema/catalog.graphql, docs/contract.md "Typed nodes"), under every
 * strategy: typed creates with their defaults, fields read through fragments, the children each
 * type allows, refusals before any write, partial updates, and the type kept by moves, copies,
 * deletes and restores, and undo.
 */
const NODE_TYPES = `${REPO_ROOT}schema/catalog.graphql`;

const TYPED = /* GraphQL */ `
  fragment Typed on Node {
    __typename
    id
    name
    data
    ... on Category { slug title }
    ... on Product { slug price stock status tags launchedAt }
  }
`;

describe.each(STRATEGIES_UNDER_TEST)('%s: typed nodes', (strategy) => {
  let server: TestServer;
  let n = 0;
  const gql = (query: string, variables?: Record<string, unknown>) =>
    server.gql(query.includes('...Typed') ? `${query}\n${TYPED}` : query, variables);
  const node = async (id: string) => okData(await gql('query ($id: ID!) { node(id: $id) { ...Typed } }', { id })).node;

  beforeAll(async () => {
    server = await startTestServer({ strategy, env: { NODE_TYPES } });
  });
  afterAll(() => server?.close());

  /** A fresh Category root `shop<n>` with a Product `shop<n>-lamp` under it. */
  const shop = async () => {
    const root = `shop${++n}`;
    okData(
      await gql(
        `mutation { createNode(input: { id: "${root}", name: "Shop", category: { slug: "${root}" } }) { ...Typed } }`,
      ),
    );
    const lamp = await gql(
      `mutation { createNode(input: { id: "${root}-lamp", parentId: "${root}", name: "Lamp",
         product: { slug: "lamp", price: 12.5, tags: ["light"] } }) { ...Typed } }`,
    );
    return { root, lamp: okData(lamp).createNode, lampId: `${root}-lamp` };
  };

  it('creates typed nodes with their defaults, and reads their fields through fragments', async () => {
    const { root, lamp } = await shop();
    expect(lamp).toEqual({
      __typename: 'Product',
      id: `${root}-lamp`,
      name: 'Lamp',
      data: { slug: 'lamp', price: 12.5, status: 'DRAFT', tags: ['light'] },
      slug: 'lamp',
      price: 12.5,
      stock: null,
      status: 'DRAFT',
      tags: ['light'],
      launchedAt: null,
    });
    const children = okData(
      await gql(`{ node(id: "${root}") { ...Typed children(first: 5) { nodes { ...Typed } } } }`),
    ).node;
    expect(children).toMatchObject({ __typename: 'Category', slug: root, title: null });
    expect(children.children.nodes.map((c: { __typename: string; price: number }) => [c.__typename, c.price])).toEqual([
      ['Product', 12.5],
    ]);
    // Without a node type: an UntypedNode, its data any JSON object.
    const free = okData(
      await gql('mutation { createNode(input: { name: "Notes", data: { any: [1] } }) { ...Typed } }'),
    );
    expect(free.createNode).toMatchObject({ __typename: 'UntypedNode', data: { any: [1] } });
  });

  it('refuses, before writing: a field of the wrong type, a missing one, two types, a child not allowed', async () => {
    const { root } = await shop();
    const refused = async (input: string, message: string | RegExp) => {
      const answer = await gql(`mutation { createNode(input: { parentId: "${root}", name: "X", ${input} }) { id } }`);
      expect(answer.body.errors?.[0]?.message).toMatch(message);
      expect(answer.body.extensions?.dynamodb?.itemsWritten ?? 0).toBe(0);
    };
    await refused('product: { slug: "x", price: "cheap" }', /Float cannot represent non numeric value/);
    await refused('product: { price: 3 }', /Field "ProductInput.slug" of required type "String!" was not provided/);
    await refused(
      'product: { slug: "x" }, category: { slug: "y" }',
      'give the fields of one node type, not category and product',
    );
    await refused('product: { slug: "x" }, data: { a: 1 }', 'give product or data, not both');
    const raw = await gql(`mutation { createNode(input: { parentId: "${root}", name: "X", data: { a: 1 } }) { id } }`);
    expectError(raw, 'BAD_USER_INPUT', {
      message: `Category "${root}" holds only Category, Product: it cannot hold an untyped node`,
    });
  });

  it('keeps each type to the children it allows, at create and at a move', async () => {
    const { root, lampId } = await shop();
    const under = await gql(
      `mutation { createNode(input: { parentId: "${lampId}", name: "Bulb", product: { slug: "bulb" } }) { id } }`,
    );
    expectError(under, 'BAD_USER_INPUT', {
      message: `Product "${lampId}" holds no children: it cannot hold a Product`,
    });
    const other = okData(
      await gql(
        `mutation { createNode(input: { parentId: "${root}", name: "Desk", product: { slug: "desk" } }) { id } }`,
      ),
    );
    const move = await gql(`mutation { reparent(id: "${other.createNode.id}", newParentId: "${lampId}") { id } }`);
    expectError(move, 'BAD_USER_INPUT', { message: `Product "${lampId}" holds no children: it cannot hold a Product` });
  });

  it('updates only the fields a patch names, checked whole under the type', async () => {
    const { lampId } = await shop();
    const patched = okData(
      await gql(`mutation { updateNode(id: "${lampId}", product: { price: 14, stock: 3, tags: null }) { ...Typed } }`),
    ).updateNode;
    expect(patched.data).toEqual({ slug: 'lamp', price: 14, status: 'DRAFT', stock: 3 });
    const required = await gql(`mutation { updateNode(id: "${lampId}", product: { slug: null }) { id } }`);
    expectError(required, 'BAD_USER_INPUT', { message: 'Product.slug is required' });
    const wrongType = await gql(`mutation { updateNode(id: "${lampId}", category: { title: "x" }) { id } }`);
    expectError(wrongType, 'BAD_USER_INPUT', { message: `node "${lampId}" is a Product: it takes no Category fields` });
    const stranger = await gql(`mutation { updateNode(id: "${lampId}", dataPatch: { colour: "red" }) { id } }`);
    expectError(stranger, 'BAD_USER_INPUT', { message: 'Product.colour is not a field of Product' });
    expect((await node(lampId)).data).toEqual({ slug: 'lamp', price: 14, status: 'DRAFT', stock: 3 });
    // History says what the update changed, and keeps what the node was.
    const history = okData(
      await gql(`{ node(id: "${lampId}") { history(first: 1) { nodes { kind changedFields oldData } } } }`),
    ).node.history.nodes;
    expect(history).toEqual([
      {
        kind: 'UPDATED',
        changedFields: ['price', 'stock', 'tags'],
        oldData: { slug: 'lamp', price: 12.5, status: 'DRAFT', tags: ['light'] },
      },
    ]);
  });

  it('keeps the type through a copy, a delete and its restore', async () => {
    const { root, lampId } = await shop();
    const copied = okData(
      await gql(`mutation { copySubtree(input: { id: "${root}", idPrefix: "c-" }) { node { id } } }`),
    );
    expect(copied.copySubtree.node.id).toBe(`c-${root}`);
    expect(await node(`c-${lampId}`)).toMatchObject({ __typename: 'Product', price: 12.5 });
    okData(await gql(`mutation { deleteNode(id: "${lampId}") { deletedCount } }`));
    okData(await gql(`mutation { restoreNode(id: "${lampId}") { id } }`));
    expect(await node(lampId)).toMatchObject({ __typename: 'Product', slug: 'lamp', tags: ['light'] });
  });

  it('filters descendants: type, typed fields, name, and/or/not, paged both ways, the window read once', async () => {
    const root = `cat${++n}`;
    const products = [
      ['p1', 'Alpha lamp', 5, 'LIVE'],
      ['p2', 'Beta desk', 50, 'LIVE'],
      ['p3', 'Alpha chair', 20, 'DRAFT'],
      ['p4', 'Gamma shelf', 80, 'RETIRED'],
      ['p5', 'Alpha rug', 35, 'LIVE'],
    ] as const;
    okData(
      await gql(`mutation { createNodes(input: { nodes: [
        { id: "${root}", name: "Root", category: { slug: "${root}" } },
        { id: "${root}-sub", parentId: "${root}", name: "Sub", category: { slug: "sub" } },
        ${products
          .map(
            ([id, name, price, status], i) =>
              `{ id: "${root}-${id}", parentId: "${i < 3 ? root : `${root}-sub`}", name: "${name}",
                 product: { slug: "${id}", price: ${price}, status: ${status} } }`,
          )
          .join('\n')}
      ] }) { nodes { id } } }`),
    );
    const filtered = async (filter: string, page = 'first: 10') => {
      const answer = await gql(
        `{ node(id: "${root}") { descendants(${page}, filter: ${filter}) {
           nodes { id } pageInfo { hasNextPage hasPreviousPage endCursor startCursor } } } }`,
      );
      const { nodes, pageInfo } = okData(answer).node.descendants;
      return {
        ids: nodes.map((x: { id: string }) => x.id.slice(root.length + 1)),
        pageInfo,
        cost: answer.body.extensions!.dynamodb!,
      };
    };
    const sorted = async (filter: string) => (await filtered(filter)).ids.sort();
    expect(await sorted('{ type: ["Category"] }')).toEqual(['sub']);
    expect(await sorted('{ price: { gte: 20, lt: 80 } }')).toEqual(['p2', 'p3', 'p5']);
    expect(await sorted('{ status: { in: [LIVE] }, name: { prefix: "Alpha" } }')).toEqual(['p1', 'p5']);
    expect(await sorted('{ or: [{ price: { lt: 10 } }, { status: { eq: RETIRED } }] }')).toEqual(['p1', 'p4']);
    expect(await sorted('{ type: ["Product"], not: { name: { prefix: "Alpha" } } }')).toEqual(['p2', 'p4']);
    // Paged: two by two forward, then back from the end; the same nodes, each once.
    const all = (await filtered('{ type: ["Product"] }')).ids;
    expect(all).toHaveLength(5);
    const first = await filtered('{ type: ["Product"] }', 'first: 2');
    expect(first.ids).toEqual(all.slice(0, 2));
    expect(first.pageInfo.hasNextPage).toBe(true);
    const second = await filtered('{ type: ["Product"] }', `first: 2, after: "${first.pageInfo.endCursor}"`);
    expect(second.ids).toEqual(all.slice(2, 4));
    const last = await filtered('{ type: ["Product"] }', 'last: 2');
    expect(last.ids).toEqual(all.slice(3));
    expect(last.pageInfo.hasPreviousPage).toBe(true);
    // The cost of a filtered page is that of the unfiltered window read in pages of 1,000 from
    // its cursor (the strategy's descendants cost, README), whatever passes: here one page.
    const unfiltered = await gql(`{ node(id: "${root}") { descendants(first: 1000) { nodes { id name data } } } }`);
    const whole = await filtered('{ price: { gte: 0 } }');
    const none = await filtered('{ price: { gt: 1000 } }');
    const { requests, itemsRead } = unfiltered.body.extensions!.dynamodb!;
    expect([whole.cost.requests, whole.cost.itemsRead]).toEqual([requests, itemsRead]);
    expect([none.cost.requests, none.cost.itemsRead]).toEqual([requests, itemsRead]);
    // What the answer holds beside what was read: the node, and the descendants that passed.
    expect(unfiltered.body.extensions!.dynamodb!.itemsReturned).toBe(1 + 6);
    expect([whole.cost.itemsReturned, none.cost.itemsReturned]).toEqual([1 + 5, 1]);
    expect(first.cost.itemsReturned).toBe(1 + 2);
    const empty = await gql(`{ node(id: "${root}") { descendants(filter: {}) { nodes { id } } } }`);
    expectError(empty, 'BAD_USER_INPUT', { message: 'a filter holds at least one condition' });
  });
});

describe('typed nodes through export and import', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.close();
  });

  it('carry their types: exported with them, imported checked against them', async () => {
    const [from, to] = [await startTestServer({ env: { NODE_TYPES } }), await startTestServer({ env: { NODE_TYPES } })];
    servers.push(from, to);
    okData(
      await from.gql(`mutation { createNodes(input: { nodes: [
        { id: "io", name: "Shop", category: { slug: "io" } },
        { id: "io-lamp", parentId: "io", name: "Lamp", product: { slug: "lamp", price: 3 } },
        { id: "io-note", parentId: "io", name: "Note", category: { slug: "note", title: "x" } }
      ] }) { nodes { id } } }`),
    );
    const dir = mkdtempSync(join(tmpdir(), 'typed-io-'));
    const file = join(dir, 'shop.csv');
    const exported = await runTree(from, ['export', '--root', 'io', '--format', 'csv', '--out', file], { NODE_TYPES });
    expect(exported.code).toBe(0);
    const csv = readFileSync(file, 'utf8');
    expect(csv.split('\n')[0]).toBe('id,parentId,name,position,data,type');
    expect(csv).toContain(',Product\n');
    const imported = await runTree(to, ['import', file], { NODE_TYPES });
    expect(imported.stdout).toContain('3 node(s) created');
    const lamp = okData(await to.gql('{ node(id: "io-lamp") { __typename ... on Product { price status } } }'));
    expect(lamp.node).toEqual({ __typename: 'Product', price: 3, status: 'DRAFT' });
    // A file whose product goes under a product is refused whole, by line, nothing written.
    const bad = join(dir, 'bad.csv');
    writeFileSync(
      bad,
      `${csv.trimEnd()}\nio-bulb,io-lamp,Bulb,0,"{""slug"":""bulb""}",Product\n`.replaceAll('io', 'jo'),
    );
    const refused = await runTree(to, ['import', bad], { NODE_TYPES });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('line 5: Product "jo-lamp" holds no children: it cannot hold a Product');
    expect(okData(await to.gql('{ node(id: "jo") { id } }')).node).toBeNull();
    rmSync(dir, { recursive: true });
  }, 60_000);
});

describe('typed nodes in a federation subgraph', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_TYPES, FEDERATION: 'true' } });
  });
  afterAll(() => server?.close());

  it('resolves a reference to a node of its type, and none of another', async () => {
    okData(
      await server.gql(`mutation { createNodes(input: { nodes: [
        { id: "fed", name: "Shop", category: { slug: "fed" } },
        { id: "fed-lamp", parentId: "fed", name: "Lamp", product: { slug: "lamp", price: 7 } }
      ] }) { nodes { id } } }`),
    );
    const entities = await server.gql(
      `query ($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Product { id price } } }`,
      {
        r: [
          { __typename: 'Product', id: 'fed-lamp' },
          { __typename: 'Product', id: 'fed' },
        ],
      },
    );
    expect(okData(entities)._entities).toEqual([{ __typename: 'Product', id: 'fed-lamp', price: 7 }, null]);
  });
});

describe('typed nodes under SCHEMA_PREFIX', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { NODE_TYPES, SCHEMA_PREFIX: 'Tree' } });
  });
  afterAll(() => server?.close());

  it('prefixes the types, and reads typed fields of a query that never names data', async () => {
    okData(
      await server.gql(`mutation { treeCreateNodes(input: { nodes: [
        { id: "pre", name: "Shop", category: { slug: "pre" } },
        { id: "pre-lamp", parentId: "pre", name: "Lamp", product: { slug: "lamp", price: 4 } }
      ] }) { nodes { id } } }`),
    );
    const read = await server.gql(
      '{ treeNode(id: "pre") { children(first: 5) { nodes { __typename ... on TreeProduct { price } } } } }',
    );
    expect(okData(read).treeNode.children.nodes).toEqual([{ __typename: 'TreeProduct', price: 4 }]);
  });
});
