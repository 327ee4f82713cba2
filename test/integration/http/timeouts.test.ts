import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startTestServer, type TestServer } from '../../support/server.js';
import { startStallProxy, type StallProxy } from '../../support/stallProxy.js';
import { okData } from '../../support/tree.js';

/**
 * A DynamoDB that accepts connections and never answers (a proxy that holds every call): every
 * call gives up after its request timeout, per attempt, so a query answers SERVICE_UNAVAILABLE
 * in bounded time instead of hanging, /readyz answers 503 within its deadline, /healthz stays
 * 200, and all is well again once DynamoDB answers.
 */
const REQUEST_TIMEOUT_MS = 300;

describe('DynamoDB that never answers', () => {
  let proxy: StallProxy;
  let server: TestServer;

  beforeAll(async () => {
    proxy = await startStallProxy(inject('dynamoEndpoint'));
    server = await startTestServer({
      env: {
        DYNAMODB_ENDPOINT: proxy.endpoint,
        DYNAMODB_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        DYNAMODB_CONNECT_TIMEOUT_MS: '300',
      },
    });
    okData(await server.gql('mutation { createNode(input: { id: "t-root", name: "root" }) { id } }'));
  });
  afterAll(async () => {
    proxy?.resume();
    await server?.close();
    await proxy?.close();
  });

  it(
    'answers a query SERVICE_UNAVAILABLE after the attempts time out, then answers again',
    { timeout: 30_000 },
    async () => {
      proxy.stall();
      const started = Date.now();
      const response = await server.gql('{ node(id: "t-root") { id name } }');
      const elapsed = Date.now() - started;
      expect(response.body.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
      expect(response.body.data?.node ?? null).toBeNull();
      // 3 attempts of 300 ms, and the SDK's backoff between them.
      expect(elapsed).toBeGreaterThanOrEqual(3 * REQUEST_TIMEOUT_MS);
      expect(elapsed).toBeLessThan(5000);

      proxy.resume();
      expect(okData(await server.gql('{ node(id: "t-root") { id name } }'))).toEqual({
        node: { id: 't-root', name: 'root' },
      });
    },
  );

  it(
    'answers /readyz 503 within its deadline while DynamoDB hangs; /healthz stays 200',
    { timeout: 30_000 },
    async () => {
      proxy.stall();
      try {
        const started = Date.now();
        const ready = await fetch(`${server.url}/readyz`);
        expect(ready.status).toBe(503);
        expect(Date.now() - started).toBeLessThan(4000);
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      } finally {
        proxy.resume();
      }
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    },
  );
});
