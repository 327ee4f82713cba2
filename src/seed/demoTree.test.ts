import { describe, expect, it } from 'vitest';
import { CATALOG_TYPES } from '../graphql/buildSchema.js';
import { loadNodeTypes, RESERVED } from '../nodeTypes/loadNodeTypes.js';
import { parseNodeTypes } from '../nodeTypes/nodeTypes.js';
import { TypedData } from '../nodeTypes/typedData.js';
import { DEMO_PRODUCTS, demoTreeNodes } from './demoTree.js';

const CATALOG = loadNodeTypes(CATALOG_TYPES);
const typesOf = (sdl: string) => parseNodeTypes(sdl, RESERVED);

describe('demoTreeNodes', () => {
  it('is the untyped catalogue without node types: 28 nodes, parents first, each with { demo: true }', () => {
    const { typed, nodes } = demoTreeNodes();
    expect(typed).toBe(false);
    expect(nodes).toHaveLength(28);
    expect(nodes.slice(0, 5)).toEqual([
      { id: 'catalog', parentId: null, name: 'Catalog', data: { demo: true } },
      { id: 'electronics', parentId: 'catalog', name: 'Electronics', data: { demo: true } },
      { id: 'computers', parentId: 'electronics', name: 'Computers', data: { demo: true } },
      { id: 'laptops', parentId: 'computers', name: 'Laptops', data: { demo: true } },
      { id: 'desktops', parentId: 'computers', name: 'Desktops', data: { demo: true } },
    ]);
    expect(nodes.every((node) => node.type === undefined)).toBe(true);
  });

  it('is typed under schema/catalog.graphql: the same 28 Categories, and Products under three leaves', () => {
    const { typed, nodes } = demoTreeNodes(CATALOG);
    expect(typed).toBe(true);
    expect(nodes.filter((node) => node.type === 'Category').map(({ id }) => id)).toEqual(
      demoTreeNodes().nodes.map(({ id }) => id),
    );
    const products = nodes.filter((node) => node.type === 'Product');
    expect(products.map(({ parentId }) => parentId)).toEqual([
      ...['laptops', 'laptops', 'laptops'],
      ...['headphones', 'headphones', 'headphones'],
      ...['bikes', 'bikes'],
    ]);
    expect(nodes.find((node) => node.id === 'electronics')).toEqual({
      id: 'electronics',
      parentId: 'catalog',
      name: 'Electronics',
      type: 'Category',
      data: { slug: 'electronics', title: 'Computers, phones and audio' },
    });
    expect(nodes.find((node) => node.id === 'aero-13')).toEqual({
      id: 'aero-13',
      parentId: 'laptops',
      name: 'Aero 13',
      type: 'Product',
      data: { slug: 'aero-13', price: 1199, status: 'LIVE' },
    });
    expect(Object.values(DEMO_PRODUCTS).flat()).toHaveLength(products.length);
  });

  it('gives each node a slug of its own among its siblings, and passes every check of a write', () => {
    const { nodes } = demoTreeNodes(CATALOG);
    const paths = nodes.map((node) => `${node.parentId}/${String(node.data.slug)}`);
    expect(new Set(paths).size).toBe(nodes.length);
    expect(new Set(nodes.map(({ id }) => id)).size).toBe(nodes.length);
    const rules = new TypedData(CATALOG);
    const typeOf = new Map(nodes.map((node) => [node.id, node.type ?? null]));
    for (const node of nodes) {
      expect(rules.created(node.type ?? null, node.data)).toMatchObject(node.data);
      if (node.parentId) rules.checkChild(typeOf.get(node.parentId) ?? null, node.type ?? null, node.parentId);
    }
  });

  it('stays untyped under node types that are not the catalogue, or refuse its fields or its nesting', () => {
    const untyped = (sdl: string) => demoTreeNodes(typesOf(sdl)).typed;
    expect(untyped('type Folder { title: String }')).toBe(false);
    // No Product.
    expect(untyped('type Category { slug: String! @pathKey }')).toBe(false);
    // A required field the seed does not give.
    expect(untyped('type Category { slug: String! colour: String! } type Product { slug: String! price: Float }')).toBe(
      false,
    );
    // Products without status.
    expect(untyped('type Category { slug: String! title: String } type Product { slug: String! price: Float }')).toBe(
      false,
    );
    // A Category that holds no Product.
    expect(
      untyped(`
        type Category @children(types: [Category]) { slug: String! title: String }
        type Product { slug: String! price: Float status: Status }
        enum Status { DRAFT LIVE RETIRED }`),
    ).toBe(false);
    // Without @pathKey, or with more optional fields, the catalogue still fits.
    expect(
      untyped(`
        type Category { slug: String! title: String note: String }
        type Product { slug: String! price: Float status: Status }
        enum Status { DRAFT LIVE RETIRED }`),
    ).toBe(true);
  });
});
