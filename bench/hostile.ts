/**
 * `npm run bench:hostile`: how long the server takes to refuse each kind of hostile request (the
 * hostile-input suite checks what it answers and that it costs no DynamoDB call; times belong
 * here, not in a test). A server with the demo tree on an embedded DynamoDB Local; each request
 * is sent 20 times after a warm-up, and the table gives its median and worst time, with a plain
 * lookup as the baseline measured in the same run.
 */
import { loadConfig } from '../src/config.js';
import { startDynamoLocal } from '../src/dynamodb/dynamoLocal.js';
import { startServer } from '../src/server/startServer.js';

const ROUNDS = 20;

const fanOut = (levels: number, field = 'id'): string => {
  let text = `fragment F0 on Node { ${field} }\n`;
  for (let k = 1; k <= levels; k++) text += `fragment F${k} on Node { ...F${k - 1} ...F${k - 1} }\n`;
  return `{ node(id: "catalog") { ...F${levels} } }\n${text}`;
};
const nested = (levels: number, inner: string, wrap: (s: string) => string): string => {
  let text = inner;
  for (let i = 0; i < levels; i++) text = wrap(text);
  return text;
};

const REQUESTS: Array<[string, string]> = [
  ['baseline: a node lookup', JSON.stringify({ query: '{ node(id: "catalog") { id } }' })],
  [
    'depth bomb (200 levels)',
    JSON.stringify({ query: `{ node(id: "catalog") { ${nested(200, 'id', (s) => `parent { ${s} }`)} } }` }),
  ],
  [
    'alias bomb (1000 aliases)',
    JSON.stringify({
      query: `{ node(id: "catalog") { ${Array.from({ length: 1000 }, (_, i) => `a${i}: id`).join(' ')} } }`,
    }),
  ],
  [
    'directive bomb (500 on one field)',
    JSON.stringify({ query: `{ node(id: "catalog") { id ${'@include(if: true) '.repeat(500)}} }` }),
  ],
  ['fragment bomb (2^20 spreads, aliased)', JSON.stringify({ query: fanOut(20, 'x: id') })],
  [
    'nested ancestors (5 levels)',
    JSON.stringify({ query: `{ node(id: "catalog") { ${nested(5, 'id', (s) => `ancestors { ${s} }`)} } }` }),
  ],
  ['over 5000 tokens', JSON.stringify({ query: `{ ${'__typename '.repeat(6000)}}` })],
  ['batched operations', JSON.stringify([{ query: '{ __typename }' }, { query: '{ __typename }' }])],
  [
    'data nested 10,000 levels',
    '{"query":"mutation($d: JSONObject) { createNode(input: { name: \\"x\\", data: $d }) { id } }",' +
      `"variables":{"d":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}}`,
  ],
  [
    'name with a control character',
    JSON.stringify({ query: 'mutation { createNode(input: { name: "a\\u0007b" }) { id } }' }),
  ],
  [
    'forged cursor',
    JSON.stringify({ query: '{ roots(after: "eyJ4IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA") { nodes { id } } }' }),
  ],
];

async function main() {
  const local = await startDynamoLocal({ port: 8600 + Math.floor(Math.random() * 300) });
  const config = loadConfig({
    PORT: '0',
    DYNAMODB_ENDPOINT: local.endpoint,
    DYNAMODB_TABLE: `hostile_${Date.now()}`,
    LOG_LEVEL: 'silent',
  });
  const server = await startServer(config);
  try {
    const rows: string[] = [
      '| request | HTTP | code | median ms | worst ms | DynamoDB requests |',
      '| --- | --- | --- | --- | --- | --- |',
    ];
    for (const [name, body] of REQUESTS) {
      const send = async () => {
        const started = performance.now();
        const response = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        const answer = (await response.json()) as {
          errors?: Array<{ extensions?: { code?: string } }>;
          extensions?: { dynamodb?: { requests?: number } };
        };
        return {
          ms: performance.now() - started,
          status: response.status,
          code: answer.errors?.[0]?.extensions?.code ?? 'ok',
          requests: answer.extensions?.dynamodb?.requests ?? 0,
        };
      };
      await send();
      const runs = [];
      for (let i = 0; i < ROUNDS; i++) runs.push(await send());
      const times = runs.map((r) => r.ms).sort((a, b) => a - b);
      const last = runs[runs.length - 1]!;
      rows.push(
        `| ${name} | ${last.status} | ${last.code} ` +
          `| ${times[Math.floor(ROUNDS / 2)]!.toFixed(1)} | ${times[ROUNDS - 1]!.toFixed(1)} | ${last.requests} |`,
      );
    }
    console.log(rows.join('\n'));
  } finally {
    await server.close();
    await local.stop();
  }
}

await main();
