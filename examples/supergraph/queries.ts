/**
 * Queries that cross the supergraph's subgraphs both ways: `start.ts` prints them, and
 * test/integration/gateway/supergraph.test.ts asserts their answers and what they cost Canopy
 * under each strategy (the table of docs/clients.md, one row per query).
 */
export const QUERIES = {
  // catalogue → Canopy: each product's category, and its breadcrumbs.
  a: {
    title: "products, each with its category's breadcrumbs",
    query: '{ products { name category { name ancestors { name } } } }',
  },
  // Canopy → catalogue: a category's children, and their products.
  b: {
    title: "a category's children, each with its products",
    query: '{ treeNode(id: "electronics") { children { nodes { name products { name } } } } }',
  },
  // accounts → Canopy → catalogue.
  c: {
    title: "the user's favourite categories, their children's products",
    query: '{ me { name favouriteCategories { name children { nodes { name products { name } } } } } }',
  },
  // accounts → catalogue → Canopy.
  d: {
    title: "the user's wishlist, each product's category's breadcrumbs",
    query: '{ me { wishlist { name category { name ancestors { name } } } } }',
  },
};

export type QueryName = keyof typeof QUERIES;
