import {
  BatchGetCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { keyQuery } from './keyQuery.js';
import { tenantDoc } from './tenantDoc.js';

/** A client that records what it is sent and answers `answer` (the translation, not DynamoDB). */
function recording(answer: Record<string, unknown> = {}) {
  const sent: Array<{ name: string; input: Record<string, any> }> = [];
  const doc = {
    send: async (command: { constructor: { name: string }; input: Record<string, any> }) => {
      sent.push({ name: command.constructor.name, input: command.input });
      return structuredClone(answer);
    },
  } as unknown as DynamoDBDocumentClient;
  return { doc, sent };
}

describe('tenantDoc', () => {
  it('prefixes the keys it sends and strips them from what it receives', async () => {
    const { doc, sent } = recording({
      Items: [{ pk: 'T#acme#N#a', sk: 'NODE' }],
      LastEvaluatedKey: { pk: 'T#acme#N#a', sk: 'NODE' },
    });
    const out = (await tenantDoc(doc, 'acme').send(
      new QueryCommand({ ...keyQuery('t', { pk: 'N#a', after: 'E#1' }) }),
    )) as any;
    expect(sent[0]!.input.ExpressionAttributeValues[':pk']).toBe('T#acme#N#a');
    expect(sent[0]!.input.ExclusiveStartKey).toEqual({ pk: 'T#acme#N#a', sk: 'E#1' });
    expect(out.Items).toEqual([{ pk: 'N#a', sk: 'NODE' }]);
    expect(out.LastEvaluatedKey).toEqual({ pk: 'N#a', sk: 'NODE' });
  });

  it('leaves the global partitions unprefixed', async () => {
    const { doc, sent } = recording({ Responses: { t: [{ pk: 'APIKEYS', sk: 'k' }] } });
    await tenantDoc(doc, 'acme').send(
      new BatchGetCommand({
        RequestItems: {
          t: {
            Keys: [
              { pk: 'APIKEYS', sk: 'k' },
              { pk: 'JOBS', sk: 'OPEN' },
            ],
          },
        },
      }),
    );
    expect(sent[0]!.input.RequestItems.t.Keys).toEqual([
      { pk: 'APIKEYS', sk: 'k' },
      { pk: 'T#acme#JOBS', sk: 'OPEN' },
    ]);
    const tx = recording();
    await tenantDoc(tx.doc, 'acme').send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: 't', Item: { pk: 'TENANTS', sk: 'acme' } } },
          {
            ConditionCheck: {
              TableName: 't',
              Key: { pk: 'N#a', sk: 'NODE' },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
        ],
      }),
    );
    expect(tx.sent[0]!.input.TransactItems).toEqual([
      { Put: { TableName: 't', Item: { pk: 'TENANTS', sk: 'acme' } } },
      {
        ConditionCheck: {
          TableName: 't',
          Key: { pk: 'T#acme#N#a', sk: 'NODE' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    ]);
  });

  it("scans the tenant's items only; the default tenant's scans leave every tenant and global item out", async () => {
    const { doc, sent } = recording();
    await tenantDoc(doc, 'acme').send(new ScanCommand({ TableName: 't' }));
    await tenantDoc(doc, null).send(new ScanCommand({ TableName: 't' }));
    expect(sent[0]!.input).toMatchObject({
      FilterExpression: 'begins_with(#pk, :tenant)',
      ExpressionAttributeValues: { ':tenant': 'T#acme#' },
    });
    expect(sent[1]!.input).toMatchObject({
      ExpressionAttributeValues: { ':tenants': 'T#', ':g0': 'APIKEYS', ':g1': 'TENANTS' },
    });
  });

  it('prefixes the key of an item written alone', async () => {
    const { doc, sent } = recording();
    const tenant = tenantDoc(doc, 'acme');
    await tenant.send(new PutCommand({ TableName: 't', Item: { pk: 'JOBS', sk: 'OPEN', activeUntil: 1 } }));
    await tenant.send(
      new UpdateCommand({ TableName: 't', Key: { pk: 'JOBS', sk: 'OPEN' }, UpdateExpression: 'SET a = :a' }),
    );
    await tenant.send(new DeleteCommand({ TableName: 't', Key: { pk: 'TENANTS', sk: 'acme' } }));
    expect(sent.map((s) => s.input.Item ?? s.input.Key)).toEqual([
      { pk: 'T#acme#JOBS', sk: 'OPEN', activeUntil: 1 },
      { pk: 'T#acme#JOBS', sk: 'OPEN' },
      { pk: 'TENANTS', sk: 'acme' },
    ]);
  });

  it('fails closed', async () => {
    const foreign = recording({ Items: [{ pk: 'T#globex#N#a', sk: 'NODE' }] });
    await expect(tenantDoc(foreign.doc, 'acme').send(new QueryCommand(keyQuery('t', { pk: 'N#a' })))).rejects.toThrow(
      /outside tenant "acme"/,
    );
    const { doc } = recording();
    await expect(
      tenantDoc(doc, 'acme').send(new GetCommand({ TableName: 't', Key: { pk: 'N#a', sk: 'NODE' } })),
    ).rejects.toThrow(/does not send GetCommand/);
    const handWritten = new QueryCommand({
      TableName: 't',
      KeyConditionExpression: 'pk = :p',
      ExpressionAttributeValues: { ':p': 'N#a' },
    });
    await expect(tenantDoc(doc, 'acme').send(handWritten)).rejects.toThrow(/built by keyQuery/);
    expect(() => tenantDoc(doc, 'a#b')).toThrow(/no tenant name/);
  });
});
