/**
 * The client's own CPU per DynamoDB call (`npm run bench:calls`): Canopy's SDK client
 * (src/dynamodb/client.ts) sends small calls to the embedded DynamoDB Local, 16 at a time, and
 * the process's user and system time is divided by the calls. What one call costs whatever it
 * reads: signing, the SDK's middleware, the HTTP exchange, the parse of its answer.
 *
 *   npm run bench:calls                       # 5 rounds of 4,000 calls per kind
 *   npm run bench:calls -- --rounds 9 --calls 10000
 *
 * Kinds: a GetItem of an absent key, a Query of an empty collection (both answer nothing), and
 * a BatchGetItem of two absent keys. The first round of each kind warms the code up and is not
 * counted; the medians are printed last. DynamoDB Local runs on the same cores: compare runs made
 * one after the other, not across machines.
 */
import { parseArgs } from 'node:util';
import { BatchGetCommand, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createDynamo } from '../src/dynamodb/client.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { ensureTable } from '../src/dynamodb/table.js';

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    calls: { type: 'string', default: '4000' },
    port: { type: 'string', default: '8781' },
  },
});
const ROUNDS = Number(options.rounds);
const CALLS = Number(options.calls);
const CONCURRENCY = 16;
const TABLE = 'calls';

const local = await startDynamoLocal({ port: Number(options.port) });
const { client, doc } = createDynamo({ endpoint: local.endpoint, region: 'us-east-1' });
try {
  await ensureTable(client, TABLE);
  const kinds: Array<[string, () => Promise<unknown>]> = [
    ['GetItem', () => doc.send(new GetCommand({ TableName: TABLE, Key: { pk: 'N#none', sk: 'NODE' } }))],
    [
      'Query',
      () =>
        doc.send(
          new QueryCommand({
            TableName: TABLE,
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': 'N#none' },
          }),
        ),
    ],
    [
      'BatchGetItem',
      () =>
        doc.send(
          new BatchGetCommand({
            RequestItems: {
              [TABLE]: {
                Keys: [
                  { pk: 'N#none', sk: 'NODE' },
                  { pk: 'N#other', sk: 'NODE' },
                ],
              },
            },
          }),
        ),
    ],
  ];
  console.log(`${CALLS} calls per round and kind, ${CONCURRENCY} at a time, ${ROUNDS} rounds after a warm-up`);
  const perCall: Record<string, number[]> = {};
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [kind, call] of kinds) {
      const before = process.cpuUsage();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          for (let i = 0; i < CALLS / CONCURRENCY; i++) await call();
        }),
      );
      const used = process.cpuUsage(before);
      if (round > 0) (perCall[kind] ??= []).push((used.user + used.system) / CALLS);
    }
  }
  for (const [kind, values] of Object.entries(perCall)) {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `${kind.padEnd(13)} median ${median.toFixed(0)} µs of CPU per call ` +
        `(rounds: ${values.map((v) => v.toFixed(0)).join(', ')})`,
    );
  }
} finally {
  client.destroy();
  await local.stop();
}
