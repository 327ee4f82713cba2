/**
 * The naive baseline that the benchmark (`npm run bench`) measures Canopy against: a GraphQL
 * server written the way introductory articles do it. One table keyed by `id` with a GSI on
 * `parentId` (sorted by `position`), a Query on that GSI per `children` field, a GetItem per
 * ancestor level for `ancestors` and `depth`, one DynamoDB call per field resolution, no
 * DataLoader and no batching. Honest and correct, just naive.
 */
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import {
  CreateTableCommand,
  ResourceInUseException,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  GetCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { GraphQLError } from 'graphql';
import type { TreeSpec } from '../../test/support/tree.js';

/** parentId of the roots, so that they too appear in the GSI. */
const ROOT = 'ROOT';
const BY_PARENT = 'byParent';

type Item = Record<string, unknown>;

interface NodeItem {
  id: string;
  parentId: string;
  position: string;
  name: string;
  data?: Record<string, unknown>;
}

/** Per GraphQL request: the DynamoDB calls made so far. */
interface Context {
  calls: number;
}

interface Connection {
  nodes: NodeItem[];
  pageInfo: { hasNextPage: boolean };
}

export async function createNaiveTable(client: DynamoDBClient, table: string): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'S' },
          { AttributeName: 'parentId', AttributeType: 'S' },
          { AttributeName: 'position', AttributeType: 'S' },
        ],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: BY_PARENT,
            KeySchema: [
              { AttributeName: 'parentId', KeyType: 'HASH' },
              { AttributeName: 'position', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  await waitUntilTableExists({ client, maxWaitTime: 60, minDelay: 1, maxDelay: 2 }, { TableName: table });
}

export async function loadNaiveTree(doc: DynamoDBDocumentClient, table: string, roots: TreeSpec[]): Promise<void> {
  const items: Item[] = [];
  const add = (specs: TreeSpec[], parentId: string) => {
    const positions = generateNKeysBetween(null, null, specs.length);
    specs.forEach((spec, i) => {
      const item: Item = { id: spec.id, parentId, position: positions[i]!, name: spec.name ?? spec.id };
      if (spec.data !== undefined) item.data = spec.data;
      items.push(item);
      add(spec.children ?? [], spec.id);
    });
  };
  add(roots, ROOT);

  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  const parallel = 16;
  for (let i = 0; i < batches.length; i += parallel) {
    await Promise.all(batches.slice(i, i + parallel).map((batch) => writeBatch(doc, table, batch)));
  }
}

async function writeBatch(doc: DynamoDBDocumentClient, table: string, batch: Item[]): Promise<void> {
  let request: Record<string, Array<{ PutRequest: { Item: Item } }>> = {
    [table]: batch.map((Item) => ({ PutRequest: { Item } })),
  };
  for (let round = 0; Object.keys(request).length > 0; round++) {
    if (round > 10) throw new Error('BatchWriteItem kept leaving items unprocessed');
    if (round > 0) await new Promise((done) => setTimeout(done, 50 * 2 ** round));
    const out = await doc.send(new BatchWriteCommand({ RequestItems: request }));
    request = (out.UnprocessedItems ?? {}) as typeof request;
  }
}

const typeDefs = /* GraphQL */ `
  type Query {
    node(id: ID!): Node
    nodes(ids: [ID!]!): [Node]!
    roots(first: Int = 100): NodeConnection!
  }
  type Mutation {
    reparent(id: ID!, newParentId: ID): Node!
  }
  type Node {
    id: ID!
    name: String!
    parentId: ID
    depth: Int!
    parent: Node
    children(first: Int = 100): NodeConnection!
    ancestors: [Node!]!
    descendants(maxDepth: Int, first: Int = 100): NodeConnection!
  }
  type NodeConnection {
    nodes: [Node!]!
    pageInfo: PageInfo!
  }
  type PageInfo {
    hasNextPage: Boolean!
  }
`;

export async function startNaiveServer(options: {
  doc: DynamoDBDocumentClient;
  table: string;
  port?: number;
}): Promise<{ url: string; close(): Promise<void> }> {
  const { doc, table } = options;

  // Every DynamoDB call of the resolvers goes through these, each counted in the context.
  const getNode = async (ctx: Context, id: string): Promise<NodeItem | null> => {
    ctx.calls++;
    const out = await doc.send(new GetCommand({ TableName: table, Key: { id }, ConsistentRead: true }));
    return (out.Item as NodeItem | undefined) ?? null;
  };

  /** Children of `parentId` in sibling order (or reversed), at most `limit`, paging as needed. */
  const queryChildren = async (ctx: Context, parentId: string, limit: number, forward = true): Promise<NodeItem[]> => {
    const nodes: NodeItem[] = [];
    let start: Item | undefined;
    while (nodes.length < limit) {
      ctx.calls++;
      const out = await doc.send(
        new QueryCommand({
          TableName: table,
          IndexName: BY_PARENT,
          KeyConditionExpression: 'parentId = :p',
          ExpressionAttributeValues: { ':p': parentId },
          ScanIndexForward: forward,
          Limit: limit - nodes.length,
          ExclusiveStartKey: start,
        }),
      );
      nodes.push(...((out.Items ?? []) as NodeItem[]));
      start = out.LastEvaluatedKey;
      if (!start) break;
    }
    return nodes;
  };

  const connection = async (ctx: Context, parentId: string, first: number): Promise<Connection> => {
    const nodes = await queryChildren(ctx, parentId, Math.max(0, first) + 1);
    return { nodes: nodes.slice(0, Math.max(0, first)), pageInfo: { hasNextPage: nodes.length > first } };
  };

  /** Ancestors of `node`, root first: one GetItem per level, walking up parentId. */
  const ancestorsOf = async (ctx: Context, node: NodeItem): Promise<NodeItem[]> => {
    const path: NodeItem[] = [];
    for (let id = node.parentId; id !== ROOT;) {
      const parent = await getNode(ctx, id);
      if (!parent) break;
      path.unshift(parent);
      id = parent.parentId;
    }
    return path;
  };

  const descendantsOf = async (
    ctx: Context,
    node: NodeItem,
    maxDepth: number | null,
    first: number,
  ): Promise<Connection> => {
    const wanted = Math.max(0, first);
    const found: NodeItem[] = [];
    let level = [node];
    for (let depth = 1; level.length > 0 && found.length <= wanted; depth++) {
      if (maxDepth !== null && depth > maxDepth) break;
      const remaining = wanted + 1 - found.length;
      const children = await Promise.all(level.map((parent) => queryChildren(ctx, parent.id, remaining)));
      level = children.flat();
      found.push(...level);
    }
    return { nodes: found.slice(0, wanted), pageInfo: { hasNextPage: found.length > wanted } };
  };

  const reparent = async (ctx: Context, id: string, newParentId: string | null): Promise<NodeItem> => {
    const node = await getNode(ctx, id);
    if (!node) throw new GraphQLError(`node ${id} not found`, { extensions: { code: 'NOT_FOUND' } });
    if (newParentId !== null) {
      // Walk up from the new parent: meeting the node itself means the move would make a cycle.
      for (let at = newParentId; at !== ROOT;) {
        if (at === id) {
          throw new GraphQLError(`cannot move ${id} under its own subtree`, { extensions: { code: 'CYCLE' } });
        }
        const ancestor = await getNode(ctx, at);
        if (!ancestor) throw new GraphQLError(`node ${at} not found`, { extensions: { code: 'NOT_FOUND' } });
        at = ancestor.parentId;
      }
    }
    const parentId = newParentId ?? ROOT;
    const [last] = await queryChildren(ctx, parentId, 1, false);
    const position = generateKeyBetween(last?.position ?? null, null);
    ctx.calls++;
    const out = await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { id },
        UpdateExpression: 'SET parentId = :parent, #position = :position',
        ExpressionAttributeNames: { '#position': 'position' },
        ExpressionAttributeValues: { ':parent': parentId, ':position': position },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return out.Attributes as NodeItem;
  };

  const resolvers = {
    Query: {
      node: (_: unknown, args: { id: string }, ctx: Context) => getNode(ctx, args.id),
      nodes: (_: unknown, args: { ids: string[] }, ctx: Context) => Promise.all(args.ids.map((id) => getNode(ctx, id))),
      roots: (_: unknown, args: { first: number }, ctx: Context) => connection(ctx, ROOT, args.first),
    },
    Mutation: {
      reparent: (_: unknown, args: { id: string; newParentId?: string | null }, ctx: Context) =>
        reparent(ctx, args.id, args.newParentId ?? null),
    },
    Node: {
      parentId: (node: NodeItem) => (node.parentId === ROOT ? null : node.parentId),
      depth: async (node: NodeItem, _: unknown, ctx: Context) => (await ancestorsOf(ctx, node)).length,
      parent: (node: NodeItem, _: unknown, ctx: Context) =>
        node.parentId === ROOT ? null : getNode(ctx, node.parentId),
      children: (node: NodeItem, args: { first: number }, ctx: Context) => connection(ctx, node.id, args.first),
      ancestors: (node: NodeItem, _: unknown, ctx: Context) => ancestorsOf(ctx, node),
      descendants: (node: NodeItem, args: { maxDepth?: number | null; first: number }, ctx: Context) =>
        descendantsOf(ctx, node, args.maxDepth ?? null, args.first),
    },
  };

  const countPlugin: ApolloServerPlugin<Context> = {
    async requestDidStart() {
      return {
        async willSendResponse({ response, contextValue }) {
          if (response.body.kind !== 'single') return;
          response.body.singleResult.extensions = { dynamodb: { requests: contextValue.calls } };
        },
      };
    },
  };

  const server = new ApolloServer<Context>({ typeDefs, resolvers, plugins: [countPlugin] });
  const { url } = await startStandaloneServer(server, {
    listen: { host: '127.0.0.1', port: options.port ?? 0 },
    context: async () => ({ calls: 0 }),
  });
  return { url, close: () => server.stop() };
}
