import { isTreeError } from '../errors.js';
import type { TreeStore } from '../storage/treeStore.js';

/**
 * The demo tree seeded into an empty table: a product catalogue, 28 nodes over 4 levels
 * (depth 0..3). Ids are readable so that the example queries (docs/examples.md) work as written.
 */
interface Seed {
  id: string;
  name: string;
  children?: Seed[];
}

export const DEMO_TREE: Seed = {
  id: 'catalog',
  name: 'Catalog',
  children: [
    {
      id: 'electronics',
      name: 'Electronics',
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

/** Seeds the demo tree when the table holds no tree at all; returns the number of nodes written. */
export async function seedDemoTree(store: TreeStore): Promise<number> {
  const roots = await store.children(null, { first: 1 });
  if (roots.edges.length > 0) return 0;
  let count = 0;
  const plant = async (seed: Seed, parentId: string | null): Promise<void> => {
    await store.createNode({ id: seed.id, parentId, name: seed.name, data: { demo: true } });
    count++;
    for (const child of seed.children ?? []) await plant(child, seed.id);
  };
  try {
    await plant(DEMO_TREE, null);
  } catch (error) {
    // Another process started seeding the same empty table first.
    if (!isTreeError(error, 'ALREADY_EXISTS')) throw error;
  }
  return count;
}
