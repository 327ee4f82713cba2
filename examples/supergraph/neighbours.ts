/**
 * Three subgraphs a supergraph holds beside Canopy, as a platform team meets them, each with its
 * data in memory and built with @apollo/subgraph:
 *
 * - `builds`, a Relay-style service: its own `interface Node`, `node`, `nodes`, `Job` and `jobs`,
 *   and Relay's `PageInfo`. These are the names Canopy's schema holds too, hence SCHEMA_PREFIX.
 * - `catalogue`: products, each in a category that is a node of Canopy's tree (`TreeNode`, by
 *   its id), and a category's products, added to the tree node by `@key`.
 * - `accounts`: users, with their favourite categories (tree nodes) and their wishlist (products).
 *
 * The category ids are those of CATALOGUE_TREE (catalogueTree.ts). The tests compose, serve and stitch these
 * schemas; `start.ts` serves them behind a gateway.
 */
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type DocumentNode, type GraphQLSchema } from 'graphql';

export interface Neighbour {
  name: 'builds' | 'catalogue' | 'accounts';
  /** The subgraph's SDL, as composition reads it. */
  typeDefs: DocumentNode;
  schema: GraphQLSchema;
}

const LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable"])';

const PRODUCTS = [
  { id: 'p1', name: 'Aero 14 laptop', price: 1299, categoryId: 'laptops' },
  { id: 'p2', name: 'Aero 16 laptop', price: 1599, categoryId: 'laptops' },
  { id: 'p3', name: 'Pocket phone', price: 699, categoryId: 'phones' },
  { id: 'p4', name: 'Studio headphones', price: 249, categoryId: 'audio' },
  { id: 'p5', name: 'Cast-iron pan', price: 45, categoryId: 'kitchen' },
  { id: 'p6', name: "Chef's knife", price: 89, categoryId: 'kitchen' },
  { id: 'p7', name: 'Pruning shears', price: 25, categoryId: 'garden' },
];

const USERS = [
  { id: 'alice', name: 'Alice', favouriteCategoryIds: ['electronics', 'home'], wishlistIds: ['p4', 'p7'] },
  { id: 'bob', name: 'Bob', favouriteCategoryIds: ['kitchen'], wishlistIds: ['p1'] },
];

/** The signed-in user of `me` (a real accounts service reads it from the request's token). */
const ME = 'alice';

const PIPELINES = [
  { id: 'Pipeline:web', name: 'web' },
  { id: 'Pipeline:api', name: 'api' },
];

const JOBS = [
  { id: 'Job:1', pipelineId: 'Pipeline:web', status: 'PASSED' },
  { id: 'Job:2', pipelineId: 'Pipeline:api', status: 'FAILED' },
  { id: 'Job:3', pipelineId: 'Pipeline:web', status: 'RUNNING' },
];

type Product = (typeof PRODUCTS)[number];
type User = (typeof USERS)[number];
type Job = (typeof JOBS)[number];
type Pipeline = (typeof PIPELINES)[number];

const BUILDS_SDL = /* GraphQL */ `
  ${LINK}

  "An object with a global id (Relay's object identification)."
  interface Node {
    id: ID!
  }

  type PageInfo @shareable {
    hasNextPage: Boolean!
    hasPreviousPage: Boolean!
    startCursor: String
    endCursor: String
  }

  type Pipeline implements Node @key(fields: "id") {
    id: ID!
    name: String!
    jobs(first: Int = 10, after: String): JobConnection!
  }

  "A build job."
  type Job implements Node @key(fields: "id") {
    id: ID!
    status: String!
    pipeline: Pipeline!
  }

  type JobEdge {
    cursor: String!
    node: Job!
  }

  type JobConnection {
    edges: [JobEdge!]!
    pageInfo: PageInfo!
  }

  type Query {
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    jobs(first: Int = 10, after: String): JobConnection!
    pipelines: [Pipeline!]!
  }
`;

/** A Relay connection over a list: cursors are the items' ids. */
function connection<T extends { id: string }>(items: T[], { first, after }: { first: number; after?: string | null }) {
  const start = after ? items.findIndex((item) => item.id === after) + 1 : 0;
  const page = items.slice(start, start + first);
  return {
    edges: page.map((node) => ({ cursor: node.id, node })),
    pageInfo: {
      hasNextPage: start + first < items.length,
      hasPreviousPage: start > 0,
      startCursor: page[0]?.id ?? null,
      endCursor: page.at(-1)?.id ?? null,
    },
  };
}

/** Any object of the builds service by its global id (`Job:1`, `Pipeline:web`). */
const byGlobalId = (id: string): Job | Pipeline | null =>
  JOBS.find((job) => job.id === id) ?? PIPELINES.find((pipeline) => pipeline.id === id) ?? null;

const buildsResolvers = {
  Query: {
    node: (_: unknown, { id }: { id: string }) => byGlobalId(id),
    nodes: (_: unknown, { ids }: { ids: string[] }) => ids.map(byGlobalId),
    jobs: (_: unknown, args: { first: number; after?: string }) => connection(JOBS, args),
    pipelines: () => PIPELINES,
  },
  Node: { __resolveType: ({ id }: { id: string }) => id.split(':')[0] },
  Pipeline: {
    __resolveReference: ({ id }: { id: string }) => byGlobalId(id),
    jobs: ({ id }: Pipeline, args: { first: number; after?: string }) =>
      connection(
        JOBS.filter((job) => job.pipelineId === id),
        args,
      ),
  },
  Job: {
    __resolveReference: ({ id }: { id: string }) => byGlobalId(id),
    pipeline: ({ pipelineId }: Job) => byGlobalId(pipelineId),
  },
};

const CATALOGUE_SDL = /* GraphQL */ `
  ${LINK}

  type Product @key(fields: "id") {
    id: ID!
    name: String!
    price: Float!
    "The category it is listed in: a node of Canopy's tree."
    category: TreeNode
  }

  # Canopy's tree node (its description is Canopy's), extended with the category's products.
  type TreeNode @key(fields: "id") {
    id: ID!
    "A category's products (its own, not those of the categories below it)."
    products(first: Int): [Product!]!
  }

  type Query {
    products(first: Int): [Product!]!
    product(id: ID!): Product
  }
`;

const productById = (id: string): Product | null => PRODUCTS.find((product) => product.id === id) ?? null;

const catalogueResolvers = {
  Query: {
    products: (_: unknown, { first }: { first?: number | null }) => PRODUCTS.slice(0, first ?? undefined),
    product: (_: unknown, { id }: { id: string }) => productById(id),
  },
  Product: {
    __resolveReference: ({ id }: { id: string }) => productById(id),
    category: ({ categoryId }: Product) => ({ id: categoryId }),
  },
  TreeNode: {
    __resolveReference: ({ id }: { id: string }) => ({ id }),
    products: ({ id }: { id: string }, { first }: { first?: number | null }) =>
      PRODUCTS.filter((product) => product.categoryId === id).slice(0, first ?? undefined),
  },
};

const ACCOUNTS_SDL = /* GraphQL */ `
  ${LINK}

  type User @key(fields: "id") {
    id: ID!
    name: String!
    "Categories of Canopy's tree the user follows."
    favouriteCategories: [TreeNode!]!
    wishlist: [Product!]!
  }

  # References only: Canopy resolves tree nodes, the catalogue products.
  type TreeNode @key(fields: "id", resolvable: false) {
    id: ID!
  }

  type Product @key(fields: "id", resolvable: false) {
    id: ID!
  }

  type Query {
    "The signed-in user."
    me: User
    user(id: ID!): User
  }
`;

const userById = (id: string): User | null => USERS.find((user) => user.id === id) ?? null;

const accountsResolvers = {
  Query: {
    me: () => userById(ME),
    user: (_: unknown, { id }: { id: string }) => userById(id),
  },
  User: {
    __resolveReference: ({ id }: { id: string }) => userById(id),
    favouriteCategories: ({ favouriteCategoryIds }: User) => favouriteCategoryIds.map((id) => ({ id })),
    wishlist: ({ wishlistIds }: User) => wishlistIds.map((id) => ({ id })),
  },
};

/** The resolver map buildSubgraphSchema takes (its type is not exported by name). */
type Resolvers = NonNullable<Extract<Parameters<typeof buildSubgraphSchema>[0], { resolvers?: unknown }>['resolvers']>;

const neighbour = (name: Neighbour['name'], sdl: string, resolvers: Resolvers): Neighbour => {
  const typeDefs = parse(sdl);
  return { name, typeDefs, schema: buildSubgraphSchema({ typeDefs, resolvers }) };
};

/** The three subgraphs, each built anew (a server per call may keep state in its schema). */
export function neighbours(): Neighbour[] {
  return [
    neighbour('builds', BUILDS_SDL, buildsResolvers),
    neighbour('catalogue', CATALOGUE_SDL, catalogueResolvers),
    neighbour('accounts', ACCOUNTS_SDL, accountsResolvers),
  ];
}
