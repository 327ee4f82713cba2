import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { ensureTable } from '../../../src/dynamodb/table.js';
import { createLambdaApi, type ApiEvent, type ApiHandler } from '../../../src/server/lambdaApi.js';
import { uniqueTable } from '../../support/server.js';

/**
 * The serverless API (src/server/lambdaApi.ts) invoked as API Gateway's HTTP API invokes it: real
 * payload 2.0 events, on the test run's DynamoDB Local.
 */

/** A POST /graphql event as API Gateway v2 sends it, with `body` and extra headers. */
function postEvent(body: unknown, headers: Record<string, string> = {}, base64 = false): ApiEvent {
  const text = JSON.stringify(body);
  return {
    version: '2.0',
    routeKey: 'POST /graphql',
    rawPath: '/graphql',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'content-length': String(text.length), ...headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'api',
      http: { method: 'POST', path: '/graphql', protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: 'request',
      routeKey: 'POST /graphql',
      stage: '$default',
      time: '28/Nov/2026:10:00:00 +0000',
      timeEpoch: Date.now(),
    },
    body: base64 ? Buffer.from(text).toString('base64') : text,
    isBase64Encoded: base64,
  };
}

const CONTEXT = { awsRequestId: 'request', getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

interface Answer {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
  extensions?: { dynamodb?: { requests: number } };
}

describe('the GraphQL API as a Lambda handler', () => {
  let dynamo: Dynamo;
  let api: ApiHandler;
  let jwtApi: ApiHandler;
  const call = async (handler: ApiHandler, event: ApiEvent) => {
    const result = await handler(event, CONTEXT);
    return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body!) as Answer };
  };

  beforeAll(async () => {
    const table = uniqueTable();
    const base = { DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), DYNAMODB_TABLE: table, LOG_LEVEL: 'silent' };
    const config = loadConfig(base);
    dynamo = createDynamo({ endpoint: config.dynamodbEndpoint, region: config.region });
    await ensureTable(dynamo.client, table);
    api = createLambdaApi(config, dynamo);
    jwtApi = createLambdaApi(loadConfig({ ...base, AUTH: 'jwt', JWT_SECRET: 'a'.repeat(32) }), dynamo);
  });
  afterAll(() => dynamo?.client.destroy());

  it('answers a mutation and a query, with their cost', async () => {
    const created = await call(
      api,
      postEvent({ query: 'mutation { createNode(input: { id: "l", name: "Lambda" }) { id name depth } }' }),
    );
    expect(created.status).toBe(200);
    expect(created.body.data).toEqual({ createNode: { id: 'l', name: 'Lambda', depth: 0 } });
    const read = await call(api, postEvent({ query: '{ node(id: "l") { name } }' }, {}, true));
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({ node: { name: 'Lambda' } });
    expect(read.body.extensions?.dynamodb?.requests).toBeGreaterThan(0);
  });

  it('admits as the server does: no token, 401; refuses a bad document with its code', async () => {
    const anonymous = await call(jwtApi, postEvent({ query: '{ roots { nodes { id } } }' }));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer realm="canopy"');
    expect(anonymous.body.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
    const invalid = await call(api, postEvent({ query: '{ node(id: "l") { nope } }' }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
  });
});
