/**
 * The naive server as a process of its own, for the benchmark: NAIVE_TABLE on the DynamoDB at
 * DYNAMODB_ENDPOINT, GraphQL on PORT. A plain SDK client, with as many sockets as Canopy's.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startNaiveServer } from './naiveServer.js';

const client = new DynamoDBClient({
  endpoint: process.env.DYNAMODB_ENDPOINT,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  requestHandler: { httpAgent: { keepAlive: true, maxSockets: 256 } },
});
const server = await startNaiveServer({
  doc: DynamoDBDocumentClient.from(client),
  table: process.env.NAIVE_TABLE ?? 'naive',
  port: Number(process.env.PORT ?? 4100),
});
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
