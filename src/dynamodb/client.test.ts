import { setFlagsFromString } from 'node:v8';
import {
  DeleteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { uniqueTable } from '../../test/support/server.js';
import { createDynamo, type Dynamo } from './client.js';
import { ensureTable } from './table.js';

const LOCAL = { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
type Deserializer = { deserializeResponse(...args: unknown[]): Promise<unknown> };

/**
 * The document client's commands go out as the SDK commands they wrap, through a client that
 * resolves each command class's middleware once: each call still sends its own input and gets
 * its own answer, unmarshalled, and carries the user agent it was given.
 */
describe('createDynamo', () => {
  const table = uniqueTable();
  const agents: string[] = [];
  let dynamo: Dynamo;

  beforeAll(async () => {
    dynamo = createDynamo({
      endpoint: inject('dynamoEndpoint'),
      region: 'local',
      userAgent: 'canopy/test',
      middleware: (stack) =>
        stack.add(
          (next) => async (args) => {
            agents.push(String((args.request as { headers: Record<string, string> }).headers['user-agent']));
            return next(args);
          },
          { step: 'finalizeRequest', name: 'testAgents' },
        ),
    });
    await ensureTable(dynamo.client, table);
    for (let i = 0; i < 20; i++)
      await dynamo.doc.send(
        new PutCommand({ TableName: table, Item: { pk: `P#${i % 2}`, sk: `S#${i}`, n: i, list: [i, `v${i}`] } }),
      );
  });
  afterAll(() => dynamo?.client.destroy());

  it('answers concurrent calls of one class with their own items, resolving the class once', async () => {
    const wrapped = vi.spyOn(GetItemCommand.prototype, 'resolveMiddleware');
    const document = vi.spyOn(GetCommand.prototype, 'resolveMiddleware');
    try {
      const items = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          dynamo.doc.send(new GetCommand({ TableName: table, Key: { pk: `P#${i % 2}`, sk: `S#${i}` } })),
        ),
      );
      expect(items.map((out) => out.Item)).toEqual(
        Array.from({ length: 20 }, (_, i) => ({ pk: `P#${i % 2}`, sk: `S#${i}`, n: i, list: [i, `v${i}`] })),
      );
      expect(wrapped.mock.calls.length).toBeLessThanOrEqual(1);
      expect(document).not.toHaveBeenCalled();
    } finally {
      wrapped.mockRestore();
      document.mockRestore();
    }
  });

  it('marshals keys and values in and out of a Query, and passes options the document way', async () => {
    const query = {
      TableName: table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': 'P#1' },
      ConsistentRead: true,
    };
    const page = await dynamo.doc.send(new QueryCommand({ ...query, Limit: 3 }));
    expect(page.Items?.map((item) => item.n)).toEqual([1, 11, 13]);
    const next = await dynamo.doc.send(new QueryCommand({ ...query, ExclusiveStartKey: page.LastEvaluatedKey }), {
      abortSignal: new AbortController().signal,
    });
    expect(next.Items?.map((item) => item.n)).toEqual([15, 17, 19, 3, 5, 7, 9]);
  });

  it('parses answers itself into what the SDK and lib-dynamodb give, for every kind of value', async () => {
    const odd: Record<string, AttributeValue> = {
      pk: { S: 'ODD' },
      sk: { S: 'ALL' },
      big: { N: '12345678901234567890' },
      fraction: { N: '-0.125' },
      bytes: { B: new Uint8Array([0, 1, 254, 255]) },
      byteSet: { BS: [new Uint8Array([1]), new Uint8Array([2, 3])] },
      strings: { SS: ['a', 'é', '"quoted"'] },
      numbers: { NS: ['1', '2.5'] },
      nested: { M: { list: { L: [{ NULL: true }, { BOOL: false }, { S: '\u2028' }] } } },
      empty: { S: '' },
    };
    await dynamo.client.send(new PutItemCommand({ TableName: table, Item: odd }));
    // The SDK's own deserializer, for comparison: a document client on a client of its own.
    const plainClient = new DynamoDBClient({ region: 'local', endpoint: inject('dynamoEndpoint'), ...LOCAL });
    const plain = DynamoDBDocumentClient.from(plainClient);
    const sdk = vi.spyOn(
      Object.getPrototypeOf(plainClient.config.protocol) as object as Deserializer,
      'deserializeResponse',
    );
    try {
      const key = { pk: 'ODD', sk: 'ALL' };
      const reads = [
        new GetCommand({ TableName: table, Key: key, ConsistentRead: true }),
        new BatchGetCommand({ RequestItems: { [table]: { Keys: [key], ConsistentRead: true } } }),
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'ODD' },
          ReturnConsumedCapacity: 'TOTAL',
        }),
        new ScanCommand({ TableName: table, Limit: 5 }),
      ];
      for (const read of reads) {
        sdk.mockClear();
        const fast = (await dynamo.doc.send(read as GetCommand)) as Record<string, unknown>;
        expect(sdk).not.toHaveBeenCalled();
        const slow = (await plain.send(read as GetCommand)) as Record<string, unknown>;
        expect(sdk).toHaveBeenCalledTimes(1);
        expect({ ...fast, $metadata: undefined }).toEqual({ ...slow, $metadata: undefined });
        expect(fast.$metadata).toMatchObject({ httpStatusCode: 200 });
      }
      const item = (await dynamo.doc.send(reads[0] as GetCommand)).Item!;
      expect(item.big).toBe(12345678901234567890n);
      expect(item.bytes).toEqual(new Uint8Array([0, 1, 254, 255]));
      expect(item.byteSet).toEqual(new Set([new Uint8Array([1]), new Uint8Array([2, 3])]));
      // lib-dynamodb drops a map key named __proto__ (it sets the prototype); Canopy keeps it as data.
      const proto = JSON.parse(
        '{"pk":{"S":"ODD"},"sk":{"S":"PROTO"},"m":{"M":{"__proto__":{"S":"kept"}}}}',
      ) as typeof odd;
      await dynamo.client.send(new PutItemCommand({ TableName: table, Item: proto }));
      const kept = (await dynamo.doc.send(new GetCommand({ TableName: table, Key: { pk: 'ODD', sk: 'PROTO' } }))).Item!;
      expect(Object.getOwnPropertyDescriptor(kept.m, '__proto__')?.value).toBe('kept');
      expect(Object.getPrototypeOf(kept.m)).toBe(Object.prototype);
      // A refusal still goes the SDK's way: its name and reasons are what retries and errors read.
      sdk.mockClear();
      const refused = await dynamo.doc
        .send(
          new TransactWriteCommand({
            TransactItems: [
              { ConditionCheck: { TableName: table, Key: key, ConditionExpression: 'attribute_not_exists(pk)' } },
            ],
          }),
        )
        .catch((error: unknown) => error as { name: string; CancellationReasons?: Array<{ Code?: string }> });
      expect(sdk).toHaveBeenCalledTimes(1);
      expect(refused).toMatchObject({
        name: 'TransactionCanceledException',
        CancellationReasons: [{ Code: 'ConditionalCheckFailed' }],
      });
    } finally {
      sdk.mockRestore();
      plainClient.destroy();
    }
  });

  it("keeps the configuration that the SDK copies on every call in V8's fast mode", async () => {
    setFlagsFromString('--allow-natives-syntax');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- V8's own check, only parsed with the flag above
    const fast = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;
    // The client that sends the document commands gives its configuration to each class it resolves.
    const resolving = vi.spyOn(DeleteItemCommand.prototype, 'resolveMiddleware');
    try {
      await dynamo.doc.send(new DeleteCommand({ TableName: table, Key: { pk: 'none', sk: 'none' } }));
      expect(resolving).toHaveBeenCalledTimes(1);
      const sending = resolving.mock.calls[0]![1] as object;
      expect([fast(dynamo.client.config), fast(sending)]).toEqual([true, true]);
      // As the SDK leaves it:
      expect(fast(new DynamoDBClient({ region: 'local', ...LOCAL }).config)).toBe(false);
    } finally {
      resolving.mockRestore();
    }
  });

  it('sends the user agent it was given on every call', () => {
    expect(agents.length).toBeGreaterThan(20);
    expect(new Set(agents)).toEqual(new Set(['canopy/test']));
  });
});
