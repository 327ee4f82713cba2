/**
 * Schema stitching: Canopy (no federation) as a remote subschema over HTTP, stitched with a local
 * products schema whose `Product.category` is a Node known only by its id. Node is a merged type:
 * its other fields come from Canopy through `nodes(ids:)`, batched, so the categories of every
 * product of a query cost one Canopy request. Canopy's cost report is read from its HTTP responses.
 */
import { buildHTTPExecutor } from '@graphql-tools/executor-http';
import { stitchSchemas } from '@graphql-tools/stitch';
import { schemaFromExecutor } from '@graphql-tools/wrap';
import { buildSchema, graphql, type GraphQLSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildTree } from '../../support/tree.js';

/** One HTTP exchange between the stitched gateway and Canopy. */
interface Exchange {
  query: string;
  variables: Record<string, unknown> | undefined;
  body: GraphQLResponse['body'];
}

const PRODUCTS_SDL = /* GraphQL */ `
  type Product {
    id: ID!
    name: String!
    categoryId: ID!
    category: Node
  }

  type Node {
    id: ID!
  }

  type Query {
    products: [Product!]!
  }
`;

/** Six leaf categories at depth 2, two products in each. */
const CATEGORIES = ['laptops', 'phones', 'audio', 'kitchen', 'garden', 'tools'];
const NAMES: Record<string, string> = {
  catalog: 'Catalog',
  electronics: 'Electronics',
  home: 'Home',
  laptops: 'Laptops',
  phones: 'Phones',
  audio: 'Audio',
  kitchen: 'Kitchen',
  garden: 'Garden',
  tools: 'Tools',
};
const PARENT: Record<string, string> = {
  laptops: 'electronics',
  phones: 'electronics',
  audio: 'electronics',
  kitchen: 'home',
  garden: 'home',
  tools: 'home',
};
const PRODUCTS = Array.from({ length: 12 }, (_, i) => {
  const categoryId = CATEGORIES[i % CATEGORIES.length]!;
  return { id: `p${i + 1}`, name: `Product ${i + 1}`, categoryId, category: { id: categoryId } };
});

/** The local schema: plain graphql-js, with one resolver (the others read the data's properties). */
function productsSchema(): GraphQLSchema {
  const schema = buildSchema(PRODUCTS_SDL);
  schema.getQueryType()!.getFields().products!.resolve = () => PRODUCTS;
  return schema;
}

describe('schema stitching with Canopy as a remote subschema', () => {
  let canopy: TestServer;
  let stitched: GraphQLSchema;
  const exchanges: Exchange[] = [];

  beforeAll(async () => {
    canopy = await startTestServer();
    const child = (id: string) => ({ id, name: NAMES[id] });
    await buildTree(canopy, {
      id: 'catalog',
      name: 'Catalog',
      children: [
        { id: 'electronics', name: 'Electronics', children: ['laptops', 'phones', 'audio'].map(child) },
        { id: 'home', name: 'Home', children: ['kitchen', 'garden', 'tools'].map(child) },
      ],
    });

    // Records every response Canopy sends, with the operation that asked for it.
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const request = JSON.parse(typeof init?.body === 'string' ? init.body : '{}') as {
        query: string;
        variables?: Record<string, unknown>;
      };
      exchanges.push({
        query: request.query,
        variables: request.variables,
        body: (await response.clone().json()) as Exchange['body'],
      });
      return response;
    };
    const executor = buildHTTPExecutor({ endpoint: `${canopy.url}/graphql`, fetch: recordingFetch });

    stitched = stitchSchemas({
      subschemas: [
        {
          schema: await schemaFromExecutor(executor),
          executor,
          merge: {
            Node: {
              selectionSet: '{ id }',
              fieldName: 'nodes',
              key: ({ id }: { id: string }) => id,
              argsFromKeys: (ids: readonly string[]) => ({ ids }),
            },
          },
        },
        { schema: productsSchema() },
      ],
    });
  });

  afterAll(async () => {
    await canopy?.close();
  });

  it("resolves every product's category and breadcrumbs with one batched nodes(ids:) call", async () => {
    exchanges.length = 0;
    const result = await graphql({
      schema: stitched,
      source: '{ products { name category { name ancestors { name } } } }',
      contextValue: {},
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      products: PRODUCTS.map((product) => ({
        name: product.name,
        category: {
          name: NAMES[product.categoryId],
          ancestors: [{ name: 'Catalog' }, { name: NAMES[PARENT[product.categoryId]!] }],
        },
      })),
    });

    // One request to Canopy for all 12 products: `nodes(ids:)` with the 6 distinct category ids.
    expect(exchanges).toHaveLength(1);
    const [exchange] = exchanges;
    expect(exchange!.query).toMatch(/\bnodes\(ids:\s*\$\w+\)/);
    const ids = Object.values(exchange!.variables ?? {}).find(Array.isArray) as string[] | undefined;
    expect([...(ids ?? [])].sort()).toEqual([...CATEGORIES].sort());
    expect(exchange!.body.errors).toBeUndefined();
    // Its DynamoDB cost (adjacency): 1 BatchGetItem for the 6 categories, then the ancestors
    // walk of all 6 chains together, one BatchGetItem per level: their parents (electronics,
    // home), then the root (catalog). 3 requests in all, whatever the number of products.
    const cost = exchange!.body.extensions?.dynamodb;
    expect(cost && cost.requests - cost.repeatedRequests).toBe(3);
  });
});
