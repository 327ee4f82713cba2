/**
 * How many items the embedded DynamoDB Local writes per second on this machine, whatever writes
 * them: the ceiling of every write benchmark run on it (bench/README.md, Concurrent writes).
 *
 *   npm run bench:ceiling                  # 16 writers, 100 items each, 3 rounds per way
 *   npm run bench:ceiling -- --writers 4
 *
 * Each way writes the same items (a node-sized item with a 6-id path): one TransactWriteItems
 * of 100 items per writer; four of 25; BatchWriteItem of 25; 100 UpdateItem calls per writer,
 * in parallel. DynamoDB Local runs one transaction at a time: against DynamoDB, transactions on
 * different items run in parallel, and the ceiling is the table's capacity.
 */
import { parseArgs } from 'node:util';
import { BatchWriteCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../src/dynamodb/client.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';

const { values: options } = parseArgs({
  options: {
    writers: { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
    port: { type: 'string', default: '8779' },
  },
});
const WRITERS = Number(options.writers);
const ROUNDS = Number(options.rounds);
const ITEMS = 100;
const TABLE = 'ceiling';

const local = await startDynamoLocal({ port: Number(options.port) });
const { client, doc } = createDynamo({ endpoint: local.endpoint, region: 'us-east-1' });
try {
  await ensureTable(client, TABLE);
  const item = (writer: number, i: number, round: number) => ({
    pk: `N#w${writer}-${i}`,
    sk: 'NODE',
    path: Array.from({ length: 6 }, (_, k) => `node-${k}-${round}`),
    name: 'x'.repeat(40),
    round,
  });
  const put = (writer: number, round: number, from: number, count: number) =>
    Array.from({ length: count }, (_, i) => ({ Put: { TableName: TABLE, Item: item(writer, from + i, round) } }));
  const batch = (writer: number, round: number, from: number) =>
    doc.send(
      new BatchWriteCommand({
        RequestItems: { [TABLE]: put(writer, round, from, 25).map((p) => ({ PutRequest: { Item: p.Put.Item } })) },
      }),
    );
  const ways: Array<[string, (writer: number, round: number) => Promise<unknown>]> = [
    [
      'TransactWriteItems, 100 items',
      (w, r) => doc.send(new TransactWriteCommand({ TransactItems: put(w, r, 0, 100) })),
    ],
    [
      'TransactWriteItems, 4 x 25 items',
      async (w, r) => {
        for (let from = 0; from < ITEMS; from += 25)
          await doc.send(new TransactWriteCommand({ TransactItems: put(w, r, from, 25) }));
      },
    ],
    [
      'BatchWriteItem, 4 x 25 items',
      async (w, r) => {
        for (let from = 0; from < ITEMS; from += 25) await batch(w, r, from);
      },
    ],
    [
      'UpdateItem, 100 in parallel',
      (w, r) =>
        Promise.all(
          Array.from({ length: ITEMS }, (_, i) =>
            doc.send(
              new UpdateCommand({
                TableName: TABLE,
                Key: { pk: `N#w${w}-${i}`, sk: 'NODE' },
                UpdateExpression: 'SET #r = :r',
                ExpressionAttributeNames: { '#r': 'round' },
                ExpressionAttributeValues: { ':r': r },
              }),
            ),
          ),
        ),
    ],
  ];
  // Warm up: every item once.
  for (let w = 0; w < WRITERS; w++) for (let from = 0; from < ITEMS; from += 25) await batch(w, -1, from);
  console.log(`${WRITERS} writers, ${ITEMS} items each, ${ROUNDS} rounds`);
  for (const [name, write] of ways) {
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++)
      await Promise.all(Array.from({ length: WRITERS }, (_, w) => write(w, round)));
    const seconds = (performance.now() - started) / 1000;
    console.log(`${name.padEnd(34)} ${Math.round((WRITERS * ITEMS * ROUNDS) / seconds)} items/s`);
  }
} finally {
  client.destroy();
  await local.stop();
}
