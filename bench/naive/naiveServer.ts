/**
 * The naive baseline that the benchmark (`npm run bench`) measures Canopy against: a GraphQL
 * server written the way introductory articles do it. One table keyed by `id` with a GSI on
 * `parentId` (sorted by `position`), a Query on that GSI per `children` field, a GetItem per
 * ancestor level for `ancestors` and `depth`, one DynamoDB call per field resolution, no
 * DataLoader and no batching. Honest and correct, just naive.
 *
 * Its writes, for `npm run bench:writes`: `reparent` (the node's parentId and position, after a
 * GetItem per level of the new parent's ancestors to refuse a cycle), `createNode` (one PutItem)
 * and `updateNode` (one UpdateItem), each a single unconditional write. What that leaves
 * unprotected, as in the articles: a create under a parent that does not exist, or that another
 * request deletes or moves meanwhile, writes an orphan; a create with an id that exists
 * overwrites that node; an update of a missing id creates a stray item (no parentId, no
 * position); a reparent races other reparents (two crossing moves can make a cycle, checked on
 * reads that are stale by the time of the write) and appends after a last sibling that another
 * write may also have appended after (equal positions); a created node's position comes from the
 * clock, not from its siblings, so one created after a reparent into the same parent sorts before
 * the moved node. No history, no change log, no version checks: the last write wins.
 *
 * Each answer reports `extensions.dynamodb`: `requests` (its DynamoDB calls), `itemsWritten` and
 * `awsWriteUnits`, counted as Canopy counts them (1 unit per KB, rounded up, of each item written
 * outside a transaction), from the item as written: the one put, or the one an update returns
 * (ALL_NEW). An update's item before it is not read, so one that shrinks an item across a KB
 * boundary would count a unit less than AWS bills; the benchmark's writes keep their items' size.
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
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing';
import { GraphQLError } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { unitsOf } from '../../src/dynamodb/awsWriteUnits.js';
import { itemSize } from '../../src/dynamodb/itemSize.js';
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

/** Per GraphQL request: the DynamoDB calls made so far, the items written and their AWS write units. */
interface Context {
  calls: number;
  itemsWritten: number;
  awsWriteUnits: number;
}

/** Counts one item written outside a transaction, as it stands after the write. */
function wrote(ctx: Context, item: Item): void {
  ctx.itemsWritten++;
  ctx.awsWriteUnits += unitsOf(itemSize(item), false);
}

/** Digits after "a0" that keep a fractional-indexing key valid: it must not end with "0". */
const LAST_DIGITS = '123456789abcdefghijklmnopqrstuvwxyz';

interface CreateInput {
  id?: string | null;
  parentId?: string | null;
  name: string;
  data?: Record<string, unknown> | null;
}

interface UpdateArgs {
  id: string;
  name?: string | null;
  data?: Record<string, unknown> | null;
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
    createNode(input: CreateNodeInput!): Node!
    updateNode(id: ID!, name: String, data: JSONObject): Node!
    reparent(id: ID!, newParentId: ID): Node!
  }
  scalar JSONObject
  input CreateNodeInput {
    id: ID
    parentId: ID
    name: String!
    data: JSONObject
  }
  type Node {
    id: ID!
    name: String!
    data: JSONObject
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
    wrote(ctx, out.Attributes!);
    return out.Attributes as NodeItem;
  };

  /**
   * One PutItem, nothing read: its sibling position from the clock (a key "a0", the time in base
   * 36, a random last digit), so created nodes sort among themselves by time, but before any
   * sibling that reparent or the loader placed at "a1" and up.
   */
  const createNode = async (ctx: Context, input: CreateInput): Promise<NodeItem> => {
    const position = `a0${Date.now().toString(36)}${LAST_DIGITS[Math.floor(Math.random() * LAST_DIGITS.length)]}`;
    const item: NodeItem = {
      id: input.id ?? randomUUID(),
      parentId: input.parentId ?? ROOT,
      position,
      name: input.name,
    };
    if (input.data) item.data = input.data;
    ctx.calls++;
    await doc.send(new PutCommand({ TableName: table, Item: item }));
    wrote(ctx, item as unknown as Item);
    return item;
  };

  /** One UpdateItem: the name and data given (data null: removed); nothing given, a GetItem. */
  const updateNode = async (ctx: Context, args: UpdateArgs): Promise<NodeItem> => {
    const set: string[] = [];
    const values: Item = {};
    if (args.name != null) {
      set.push('#name = :name');
      values[':name'] = args.name;
    }
    if (args.data) {
      set.push('#data = :data');
      values[':data'] = args.data;
    }
    const expression = [set.length > 0 ? `SET ${set.join(', ')}` : '', args.data === null ? 'REMOVE #data' : '']
      .filter(Boolean)
      .join(' ');
    if (!expression) {
      const node = await getNode(ctx, args.id);
      if (!node) throw new GraphQLError(`node ${args.id} not found`, { extensions: { code: 'NOT_FOUND' } });
      return node;
    }
    const names: Record<string, string> = {};
    if (expression.includes('#name')) names['#name'] = 'name';
    if (expression.includes('#data')) names['#data'] = 'data';
    ctx.calls++;
    const out = await doc.send(
      new UpdateCommand({
        TableName: table,
        Key: { id: args.id },
        UpdateExpression: expression,
        ExpressionAttributeNames: names,
        ...(Object.keys(values).length > 0 ? { ExpressionAttributeValues: values } : {}),
        ReturnValues: 'ALL_NEW',
      }),
    );
    wrote(ctx, out.Attributes!);
    return out.Attributes as NodeItem;
  };

  const resolvers = {
    JSONObject: GraphQLJSONObject,
    Query: {
      node: (_: unknown, args: { id: string }, ctx: Context) => getNode(ctx, args.id),
      nodes: (_: unknown, args: { ids: string[] }, ctx: Context) => Promise.all(args.ids.map((id) => getNode(ctx, id))),
      roots: (_: unknown, args: { first: number }, ctx: Context) => connection(ctx, ROOT, args.first),
    },
    Mutation: {
      createNode: (_: unknown, args: { input: CreateInput }, ctx: Context) => createNode(ctx, args.input),
      updateNode: (_: unknown, args: UpdateArgs, ctx: Context) => updateNode(ctx, args),
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
          const { calls: requests, itemsWritten, awsWriteUnits } = contextValue;
          response.body.singleResult.extensions = { dynamodb: { requests, itemsWritten, awsWriteUnits } };
        },
      };
    },
  };

  const server = new ApolloServer<Context>({ typeDefs, resolvers, plugins: [countPlugin] });
  const { url } = await startStandaloneServer(server, {
    listen: { host: '127.0.0.1', port: options.port ?? 0 },
    context: async () => ({ calls: 0, itemsWritten: 0, awsWriteUnits: 0 }),
  });
  return { url, close: () => server.stop() };
}
