import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { uniqueTable } from '../../test/support/server.js';
import { createDynamo, type Dynamo } from './client.js';
import { ensureTable } from './table.js';

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

  it('sends the user agent it was given on every call', () => {
    expect(agents.length).toBeGreaterThan(20);
    expect(new Set(agents)).toEqual(new Set(['canopy/test']));
  });
});
