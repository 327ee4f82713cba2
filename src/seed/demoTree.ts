import { isTreeError } from '../errors.js';
import type { NodeTypes } from '../nodeTypes/nodeTypes.js';
import { TypedData } from '../nodeTypes/typedData.js';
import type { CreateNodeArgs, JsonObject, TreeStore } from '../storage/treeStore.js';

/**
 * The demo tree seeded into an empty table: a product catalogue, 28 nodes over 4 levels
 * (depth 0..3). Ids are readable so that the example queries (docs/examples.md) work as written.
 * Typed (docs/contract.md, "Typed nodes"), each of them is a Category and a few leaves hold
 * Products (DEMO_PRODUCTS): 36 nodes over 5 levels.
 */
interface Seed {
  id: string;
  name: string;
  /** The Category's title, when typed. */
  title?: string;
  children?: Seed[];
}

export const DEMO_TREE: Seed = {
  id: 'catalog',
  name: 'Catalog',
  children: [
    {
      id: 'electronics',
      name: 'Electronics',
      title: 'Computers, phones and audio',
      children: [
        {
          id: 'computers',
          name: 'Computers',
          children: [
            { id: 'laptops', name: 'Laptops' },
            { id: 'desktops', name: 'Desktops' },
            { id: 'tablets', name: 'Tablets' },
          ],
        },
        {
          id: 'phones',
          name: 'Phones',
          children: [
            { id: 'smartphones', name: 'Smartphones' },
            { id: 'phone-cases', name: 'Cases' },
          ],
        },
        {
          id: 'audio',
          name: 'Audio',
          children: [
            { id: 'headphones', name: 'Headphones' },
            { id: 'speakers', name: 'Speakers' },
          ],
        },
      ],
    },
    {
      id: 'home',
      name: 'Home & Garden',
      title: 'Furniture, kitchen and garden',
      children: [
        {
          id: 'furniture',
          name: 'Furniture',
          children: [
            { id: 'sofas', name: 'Sofas' },
            { id: 'tables', name: 'Tables' },
            { id: 'chairs', name: 'Chairs' },
          ],
        },
        {
          id: 'kitchen',
          name: 'Kitchen',
          children: [
            { id: 'cookware', name: 'Cookware' },
            { id: 'cutlery', name: 'Cutlery' },
          ],
        },
        { id: 'garden', name: 'Garden', children: [{ id: 'tools', name: 'Garden tools' }] },
      ],
    },
    {
      id: 'sports',
      name: 'Sports',
      title: 'Cycling and running',
      children: [
        {
          id: 'cycling',
          name: 'Cycling',
          children: [
            { id: 'bikes', name: 'Bikes' },
            { id: 'helmets', name: 'Helmets' },
          ],
        },
        { id: 'running', name: 'Running', children: [{ id: 'running-shoes', name: 'Running shoes' }] },
      ],
    },
  ],
};

/** A Product of the typed demo tree; its slug is its id. */
interface ProductSeed {
  id: string;
  name: string;
  price: number;
  status: 'DRAFT' | 'LIVE' | 'RETIRED';
}

/** The Products of the typed demo tree, by the leaf category that holds them. */
export const DEMO_PRODUCTS: Readonly<Record<string, readonly ProductSeed[]>> = {
  laptops: [
    { id: 'aero-13', name: 'Aero 13', price: 1199, status: 'LIVE' },
    { id: 'aero-15', name: 'Aero 15', price: 1499, status: 'LIVE' },
    { id: 'workbook-14', name: 'Workbook 14', price: 899, status: 'DRAFT' },
  ],
  headphones: [
    { id: 'studio-one', name: 'Studio One', price: 249, status: 'LIVE' },
    { id: 'trail-buds', name: 'Trail Buds', price: 89.5, status: 'LIVE' },
    { id: 'studio-zero', name: 'Studio Zero', price: 199, status: 'RETIRED' },
  ],
  bikes: [
    { id: 'city-cruiser', name: 'City Cruiser', price: 549, status: 'LIVE' },
    { id: 'gravel-x', name: 'Gravel X', price: 1290, status: 'DRAFT' },
  ],
};

/** One node of the seed, parents first: what createNode gets. */
export type DemoNode = CreateNodeArgs & { id: string; parentId: string | null; data: JsonObject };

/**
 * The demo tree's nodes, parents first, children in sibling order. Typed when `nodeTypes`
 * (NODE_TYPES) declares a `Category` and a `Product` that take them as schema/catalog.graphql
 * does: every node a Category (`slug`: its id; the departments a `title`), DEMO_PRODUCTS under
 * their categories (`slug`, `price`, `status`). Otherwise (no NODE_TYPES, other types, or a
 * Category or Product that refuses these fields or this nesting) untyped, each with the data
 * `{ demo: true }`.
 */
export function demoTreeNodes(nodeTypes?: NodeTypes): { typed: boolean; nodes: DemoNode[] } {
  const typed = typedDemoNodes();
  if (nodeTypes && typedNodesFit(nodeTypes, typed)) return { typed: true, nodes: typed };
  const nodes: DemoNode[] = [];
  const visit = (seed: Seed, parentId: string | null) => {
    nodes.push({ id: seed.id, parentId, name: seed.name, data: { demo: true } });
    for (const child of seed.children ?? []) visit(child, seed.id);
  };
  visit(DEMO_TREE, null);
  return { typed: false, nodes };
}

function typedDemoNodes(): DemoNode[] {
  const nodes: DemoNode[] = [];
  const visit = (seed: Seed, parentId: string | null) => {
    const data = { slug: seed.id, ...(seed.title ? { title: seed.title } : {}) };
    nodes.push({ id: seed.id, parentId, name: seed.name, type: 'Category', data });
    for (const child of seed.children ?? []) visit(child, seed.id);
    for (const { id, name, price, status } of DEMO_PRODUCTS[seed.id] ?? []) {
      nodes.push({ id, parentId: seed.id, name, type: 'Product', data: { slug: id, price, status } });
    }
  };
  visit(DEMO_TREE, null);
  return nodes;
}

/** Whether every node passes the checks of NODE_TYPES a write makes (its fields, its parent's @children). */
function typedNodesFit(nodeTypes: NodeTypes, nodes: readonly DemoNode[]): boolean {
  if (!nodeTypes.types.has('Category') || !nodeTypes.types.has('Product')) return false;
  const rules = new TypedData(nodeTypes);
  const typeOf = new Map(nodes.map((node) => [node.id, node.type ?? null]));
  try {
    for (const node of nodes) {
      rules.created(node.type ?? null, node.data);
      if (node.parentId !== null) rules.checkChild(typeOf.get(node.parentId) ?? null, node.type ?? null, node.parentId);
    }
    return true;
  } catch (error) {
    if (isTreeError(error, 'BAD_USER_INPUT')) return false;
    throw error;
  }
}

/**
 * Seeds the demo tree (demoTreeNodes: typed when `nodeTypes` declares the catalogue) when the
 * table holds no tree at all; returns the number of nodes written.
 */
export async function seedDemoTree(store: TreeStore, nodeTypes?: NodeTypes): Promise<number> {
  const roots = await store.children(null, { first: 1 });
  if (roots.edges.length > 0) return 0;
  let count = 0;
  try {
    for (const node of demoTreeNodes(nodeTypes).nodes) {
      await store.createNode(node);
      count++;
    }
  } catch (error) {
    // Another process started seeding the same empty table first.
    if (!isTreeError(error, 'ALREADY_EXISTS')) throw error;
  }
  return count;
}
