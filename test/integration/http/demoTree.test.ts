import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/npmStart.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { okData } from '../../support/tree.js';

/**
 * The demo tree a server seeds into an empty table (SEED_DEMO): the untyped catalogue of 28 nodes,
 * or, when NODE_TYPES declares the catalogue's Category and Product (schema/catalog.graphql), the
 * same tree typed with Products under a few leaves (src/seed/demoTree.ts).
 */
const CATALOG = `${REPO_ROOT}schema/catalog.graphql`;

/** A server on a fresh table with the demo seed, under these node types (none: untyped). */
const seeded = (nodeTypes?: string) =>
  startTestServer({ env: { SEED_DEMO: 'true', ...(nodeTypes ? { NODE_TYPES: nodeTypes } : {}) } });

describe('the demo tree, typed under the catalogue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await seeded(CATALOG);
  });
  afterAll(() => server?.close());

  it('seeds every node of the catalogue as a Category, with its slug', async () => {
    const data = okData(
      await server.gql(`{
        node(id: "catalog") {
          __typename descendantCount
          ... on Category { slug title }
          children { nodes { __typename id ... on Category { slug title } } }
        }
      }`),
    );
    expect(data.node).toEqual({
      __typename: 'Category',
      descendantCount: 35,
      slug: 'catalog',
      title: null,
      children: {
        nodes: [
          { __typename: 'Category', id: 'electronics', slug: 'electronics', title: 'Computers, phones and audio' },
          { __typename: 'Category', id: 'home', slug: 'home', title: 'Furniture, kitchen and garden' },
          { __typename: 'Category', id: 'sports', slug: 'sports', title: 'Cycling and running' },
        ],
      },
    });
  });

  it('puts Products under laptops, headphones and bikes, found by their fields', async () => {
    const laptops = okData(
      await server.gql(`{
        node(id: "laptops") {
          depth
          children { nodes { __typename id name ... on Product { slug price status } } }
        }
      }`),
    );
    expect(laptops.node).toEqual({
      depth: 3,
      children: {
        nodes: [
          { __typename: 'Product', id: 'aero-13', name: 'Aero 13', slug: 'aero-13', price: 1199, status: 'LIVE' },
          { __typename: 'Product', id: 'aero-15', name: 'Aero 15', slug: 'aero-15', price: 1499, status: 'LIVE' },
          {
            __typename: 'Product',
            id: 'workbook-14',
            name: 'Workbook 14',
            slug: 'workbook-14',
            price: 899,
            status: 'DRAFT',
          },
        ],
      },
    });
    const live = okData(
      await server.gql(`{
        node(id: "catalog") {
          descendants(
            minDepth: 4
            first: 20
            filter: { type: ["Product"], status: { in: [LIVE] }, price: { lt: 1000 } }
          ) {
            nodes { id parentId }
          }
        }
      }`),
    );
    expect(
      live.node.descendants.nodes.sort((a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: 'city-cruiser', parentId: 'bikes' },
      { id: 'studio-one', parentId: 'headphones' },
      { id: 'trail-buds', parentId: 'headphones' },
    ]);
  });
});

describe('the demo tree, untyped', () => {
  const folder = mkdtempSync(join(tmpdir(), 'canopy-demo-types-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('is the 28 nodes of the catalogue with { demo: true } without node types', async () => {
    const server = await seeded();
    try {
      const data = okData(await server.gql('{ node(id: "catalog") { __typename data descendantCount } }'));
      expect(data.node).toEqual({ __typename: 'Node', data: { demo: true }, descendantCount: 27 });
    } finally {
      await server.close();
    }
  });

  it('is untyped under node types that are not the catalogue', async () => {
    const types = join(folder, 'folders.graphql');
    writeFileSync(types, 'type Folder { title: String }\n');
    const server = await seeded(types);
    try {
      const data = okData(await server.gql('{ node(id: "laptops") { __typename data depth childCount } }'));
      expect(data.node).toEqual({ __typename: 'UntypedNode', data: { demo: true }, depth: 3, childCount: 0 });
    } finally {
      await server.close();
    }
  });
});
