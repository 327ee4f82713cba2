/**
 * The categories the neighbours' data refers to by id: a small catalogue, written into Canopy
 * (under SCHEMA_PREFIX=Tree) with one `treeCreateNodes` mutation, all or nothing.
 */
export interface Category {
  id: string;
  name: string;
  /** Another category of the list; absent: the root. */
  parentId?: string;
}

/** Parents before their children; siblings in their order. */
export const CATALOGUE_TREE: readonly Category[] = [
  { id: 'catalog', name: 'Catalog' },
  { id: 'electronics', name: 'Electronics', parentId: 'catalog' },
  { id: 'laptops', name: 'Laptops', parentId: 'electronics' },
  { id: 'phones', name: 'Phones', parentId: 'electronics' },
  { id: 'audio', name: 'Audio', parentId: 'electronics' },
  { id: 'home', name: 'Home & Garden', parentId: 'catalog' },
  { id: 'kitchen', name: 'Kitchen', parentId: 'home' },
  { id: 'garden', name: 'Garden', parentId: 'home' },
];

const SEED = /* GraphQL */ `
  mutation Seed($input: TreeCreateNodesInput!) {
    treeCreateNodes(input: $input) {
      nodes {
        id
      }
    }
  }
`;

/**
 * Writes CATALOGUE_TREE into the Canopy at `graphqlUrl` unless its root is there already (a
 * restart keeps the data); answers the number of nodes written.
 */
export async function seedCatalogueTree(graphqlUrl: string): Promise<number> {
  const existing = await post(graphqlUrl, '{ treeNode(id: "catalog") { id } }', {});
  if (existing.treeNode) return 0;
  await post(graphqlUrl, SEED, { input: { nodes: CATALOGUE_TREE } });
  return CATALOGUE_TREE.length;
}

async function post(url: string, query: string, variables: object): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
  if (!body.data || body.errors) throw new Error(`seeding the catalogue failed: ${JSON.stringify(body)}`);
  return body.data;
}
