import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SignJWT } from 'jose';
import { createClient as createSseClient } from 'graphql-sse';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../../../src/auth/apiKeys.js';
import { createDynamo, type Dynamo } from '../../../src/dynamodb/client.js';
import { API_KEYS_PK } from '../../../src/dynamodb/keys.js';
import { ChangeHub } from '../../../src/live/changeHub.js';
import { openTreeChanges } from '../../../src/live/treeChanges.js';
import { localWaker } from '../../../src/live/waker.js';
import { storeFor } from '../../../src/storeFor.js';
import { eventually } from '../../support/eventually.js';
import { liveClient, subscribe, type LiveEvent, type LiveSubscription } from '../../support/live.js';
import { pauses } from '../../support/pause.js';
import { startTestServer, STRATEGIES_UNDER_TEST, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';

/**
 * The transports and the guards of live subscriptions: Server-Sent Events beside WebSocket,
 * authentication on connect and again while open (an expired token, a revoked or narrowed API
 * key end the stream), the caller's trees (a node moved into a tree it may not read is out of
 * sight), the per-caller limit, a slow consumer, and the restart code on shutdown.
 */
const SECRET = 'a-live-updates-secret-of-32-bytes-or-more';
const token = (sub: string, trees?: Record<string, string>) =>
  new SignJWT({ sub, exp: Math.floor(Date.now() / 1000) + 300, ...(trees ? { trees } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));
const codeOf = (errors: unknown[]) => errors.map((e) => (e as { extensions?: { code?: string } }).extensions?.code);

const TRANSPORTS = ['graphql-ws', 'sse'] as const;
type Transport = (typeof TRANSPORTS)[number];

/** A treeChanges subscription of `nodeId` over `transport`, `credentials` in its connection_init payload or headers. */
function openOver(transport: Transport, url: string, credentials: Record<string, string>, nodeId: string) {
  const client =
    transport === 'graphql-ws'
      ? liveClient(url, credentials)
      : createSseClient({ url: `${url}/graphql`, headers: credentials, retryAttempts: 0 });
  // graphql-sse's client subscribes as graphql-ws's does: a request and a sink.
  const sub = subscribe(client as Pick<Client, 'subscribe'> as Client, { nodeId });
  return { sub, dispose: async () => void (await client.dispose()) };
}

/** Waits for a subscription's end (its errors, then completion), and answers when its first error came. */
async function endOf(sub: LiveSubscription): Promise<number> {
  let endedAt: number | undefined;
  const push = sub.errors.push.bind(sub.errors);
  Object.defineProperty(sub.errors, 'push', {
    value: (...errors: unknown[]) => ((endedAt ??= Date.now()), push(...errors)),
  });
  await eventually(
    'the end of the stream',
    async () => sub.completed,
    (completed) => completed,
  );
  return endedAt!;
}

/** An error event of the stream's field, as clients get it. */
const streamError = (message: string, code: string, extensions: Record<string, unknown> = {}) => ({
  message,
  extensions: { code, ...extensions },
});

describe('live subscriptions: transports, callers and limits', () => {
  const strategy = STRATEGIES_UNDER_TEST[0]!;
  let server: TestServer;
  let admin: string;
  const clients: Client[] = [];
  const as = async (sub: string, trees?: Record<string, string>) => {
    const client = liveClient(server.url, { authorization: `Bearer ${await token(sub, trees)}` });
    clients.push(client);
    return client;
  };
  const gql = (query: string, variables?: Record<string, unknown>) =>
    server.gql(query, variables, { authorization: admin });
  const rename = (id: string, name: string) =>
    gql('mutation($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { id } }', { id, name });

  beforeAll(async () => {
    server = await startTestServer({
      strategy,
      env: {
        AUTH: 'jwt',
        JWT_SECRET: SECRET,
        // A token ends at its exp exactly.
        JWT_CLOCK_SKEW_SECONDS: '0',
        LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: '3',
        LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '2',
      },
    });
    admin = `Bearer ${await token('admin')}`;
    const build = { ...server, gql };
    await buildTree(build, { id: 'a', children: [{ id: 'a.m' }, { id: 'a.x', children: [{ id: 'a.x1' }] }] });
    await buildTree(build, { id: 'b', children: [{ id: 'b.m' }] });
  });
  afterAll(async () => {
    for (const client of clients) await client.dispose();
    await server?.close();
  });

  it('streams over Server-Sent Events too, credentials in the headers', async () => {
    const sse = createSseClient({
      url: `${server.url}/graphql`,
      headers: { authorization: admin },
      retryAttempts: 0,
    });
    const events: LiveEvent[] = [];
    const errors: unknown[] = [];
    const stop = sse.subscribe<{ treeChanges: LiveEvent }>(
      { query: 'subscription { treeChanges(nodeId: "b") { kind nodeId node { name } } }' },
      {
        next: (result) => (result.data ? events.push(result.data.treeChanges) : errors.push(...(result.errors ?? []))),
        error: (error) => errors.push(error),
        complete: () => {},
      },
    );
    await eventually(
      'an event over SSE',
      async () => {
        okData(await rename('b.m', `poke ${Date.now()}`));
        return events;
      },
      (seen) => seen.length > 0 || errors.length > 0,
    );
    expect(errors).toEqual([]);
    expect(events[0]).toMatchObject({ kind: 'UPDATED', nodeId: 'b.m' });
    stop();
    sse.dispose();
  });

  it('authenticates on subscribe, as HTTP does', async () => {
    const anonymous = liveClient(server.url);
    clients.push(anonymous);
    const refused = subscribe(anonymous, { nodeId: 'a' });
    await refused.until(1).catch(() => {});
    expect(codeOf(refused.errors)).toEqual(['UNAUTHENTICATED']);
  });

  it("ends a stream over graphql-ws and over SSE with UNAUTHENTICATED at its token's exp, nothing after", async () => {
    const exp = Math.ceil(Date.now() / 1000) + 2;
    const brief = await new SignJWT({ sub: 'brief', exp })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    const streams = TRANSPORTS.map((transport) =>
      openOver(transport, server.url, { authorization: `Bearer ${brief}` }, 'a'),
    );
    for (const { sub } of streams) await sub.ready('a.m', () => rename('a.m', 'poke'));
    expect(Date.now()).toBeLessThan(exp * 1000);
    const ends = await Promise.all(streams.map(({ sub }) => endOf(sub)));
    for (const [i, { sub, dispose }] of streams.entries()) {
      const endedAt = ends[i]!;
      expect(endedAt).toBeGreaterThanOrEqual(exp * 1000);
      expect(endedAt).toBeLessThan(exp * 1000 + 1000);
      expect(sub.errors).toEqual([streamError('the token has expired', 'UNAUTHENTICATED')]);
      expect(sub.events).toEqual([]);
      await dispose();
    }
  });

  it("keeps to the caller's trees: another tree does not exist, a node moved there is out of sight", async () => {
    const reader = await as('reader', { a: 'read' });
    const foreign = subscribe(reader, { nodeId: 'b' });
    await foreign.until(1).catch(() => {});
    expect(codeOf(foreign.errors)).toEqual(['NOT_FOUND']);

    const sub = subscribe(reader, { nodeId: 'a' });
    await sub.ready('a.m', () => rename('a.m', 'poke'));
    okData(await gql('mutation { reparent(id: "a.x", newParentId: "b") { id } }'));
    const [moved] = await sub.until(1);
    expect(moved).toMatchObject({ kind: 'MOVED_OUT', nodeId: 'a.x', oldParentId: 'a', newParentId: null, node: null });
    await sub.close();
  });

  it('streams a node below the root to a caller who may read its tree only', async () => {
    await buildTree({ ...server, gql }, { id: 'a.k', children: [{ id: 'a.k1' }] }, 'a');
    const reader = await as('reader', { a: 'read' });
    const sub = subscribe(reader, { nodeId: 'a.k' });
    await sub.ready('a.k1', () => rename('a.k1', 'poke'));
    okData(await rename('a.k', 'seen'));
    const [renamed] = await sub.until(1);
    expect(renamed).toMatchObject({ kind: 'UPDATED', nodeId: 'a.k', node: { name: 'seen' } });
    await sub.close();
  });

  it('keeps each tenant to its own changes, where the trees have the same ids', async () => {
    const tenantToken = async (tenant: string) =>
      `Bearer ${await new SignJWT({ sub: `${tenant}-user`, tenant, exp: Math.floor(Date.now() / 1000) + 300 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET))}`;
    const acme = await tenantToken('acme');
    const globex = await tenantToken('globex');
    const as = (authorization: string) => ({
      ...server,
      gql: (query: string, variables?: Record<string, unknown>) => server.gql(query, variables, { authorization }),
    });
    await buildTree(as(acme), { id: 't', children: [{ id: 't.m' }] });
    await buildTree(as(globex), { id: 't', children: [{ id: 't.m' }] });
    const acmeClient = liveClient(server.url, { authorization: acme });
    const globexClient = liveClient(server.url, { authorization: globex });
    clients.push(acmeClient, globexClient);
    const renameAs = (authorization: string, name: string) =>
      as(authorization).gql('mutation($name: String!) { updateNode(id: "t.m", name: $name) { id } }', { name });
    const onAcme = subscribe(acmeClient, { nodeId: 't' });
    const onGlobex = subscribe(globexClient, { nodeId: 't' });
    await onAcme.ready('t.m', () => renameAs(acme, 'poke'));
    await onGlobex.ready('t.m', () => renameAs(globex, 'poke'));
    okData(await as(acme).gql('mutation { updateNode(id: "t", name: "acme only") { id } }'));
    okData(await as(globex).gql('mutation { updateNode(id: "t", name: "globex only") { id } }'));
    await onAcme.until(1);
    await onGlobex.until(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(onAcme.events.map((e) => e.node?.name)).toEqual(['acme only']);
    expect(onGlobex.events.map((e) => e.node?.name)).toEqual(['globex only']);
    await onAcme.close();
    await onGlobex.close();
  });

  it('refuses a forged cursor, one of another tenant, and one of a tree the caller may not read', async () => {
    const refusal = async (client: Client, nodeId: string, after: string) => {
      const sub = subscribe(client, { nodeId, after });
      await sub.until(1).catch(() => {});
      return sub.errors.map((e) => ({
        message: (e as Error).message,
        extensions: (e as { extensions?: unknown }).extensions,
      }));
    };
    const refused = [
      { message: 'after is not a cursor of treeChanges', extensions: { code: 'BAD_USER_INPUT', field: 'after' } },
    ];
    const cursorOf = async (id: string, authorization: string) =>
      okData(await server.gql(`{ node(id: "${id}") { changeCursor } }`, undefined, { authorization })).node
        .changeCursor as string;
    const reader = await as('reader', { a: 'read' });
    // Unsigned, as cursors were: naming a tree the caller may not read.
    const forged = Buffer.from(JSON.stringify(['c', 'b', 0, Date.now()])).toString('base64url');
    expect(await refusal(reader, 'a', forged)).toEqual(refused);
    expect(await refusal(reader, 'a', await cursorOf('b', admin))).toEqual(refused);

    const tenantToken = async (tenant: string) =>
      `Bearer ${await new SignJWT({ sub: `${tenant}-user`, tenant, exp: Math.floor(Date.now() / 1000) + 300 })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(new TextEncoder().encode(SECRET))}`;
    const [acme, globex] = await Promise.all([tenantToken('acme'), tenantToken('globex')]);
    for (const authorization of [acme, globex])
      await buildTree(
        { ...server, gql: (q: string, v?: Record<string, unknown>) => server.gql(q, v, { authorization }) },
        {
          id: 'tc',
        },
      );
    const globexClient = liveClient(server.url, { authorization: globex });
    clients.push(globexClient);
    expect(await refusal(globexClient, 'tc', await cursorOf('tc', acme))).toEqual(refused);
  });

  it('refuses a connection, then a caller, past its live subscriptions with LIMIT_EXCEEDED', async () => {
    const messageOf = (errors: unknown[]) => (errors[0] as { message?: string } | undefined)?.message;
    const first = await as('busy');
    const held = [subscribe(first, { nodeId: 'a' }), subscribe(first, { nodeId: 'a' })];
    await held[0]!.ready('a.m', () => rename('a.m', 'poke 1'));
    await held[1]!.ready('a.m', () => rename('a.m', 'poke 2'));
    // Two per connection.
    const third = subscribe(first, { nodeId: 'a' });
    await third.until(1).catch(() => {});
    expect(codeOf(third.errors)).toEqual(['LIMIT_EXCEEDED']);
    expect(messageOf(third.errors)).toMatch(/a connection may hold 2 live subscriptions/);
    // Three per caller, on any number of connections.
    const second = await as('busy');
    const more = subscribe(second, { nodeId: 'a' });
    await more.ready('a.m', () => rename('a.m', 'poke 3'));
    const fourth = subscribe(second, { nodeId: 'a' });
    await fourth.until(1).catch(() => {});
    expect(codeOf(fourth.errors)).toEqual(['LIMIT_EXCEEDED']);
    expect(messageOf(fourth.errors)).toMatch(/a caller may hold 3 live subscriptions/);
    for (const sub of held) await sub.close();
    // Released when they end, and when a connection closes with some open.
    const again = subscribe(first, { nodeId: 'a' });
    await again.ready('a.m', () => rename('a.m', 'poke 4'));
    await first.dispose();
    await second.dispose();
    const reconnected = await as('busy');
    const both = [subscribe(reconnected, { nodeId: 'a' }), subscribe(reconnected, { nodeId: 'a' })];
    await both[0]!.ready('a.m', () => rename('a.m', 'poke 5'));
    await both[1]!.ready('a.m', () => rename('a.m', 'poke 6'));
    expect([...both[0]!.errors, ...both[1]!.errors]).toEqual([]);
  });

  it('applies the operation limits to subscription documents, and counts what it sends', async () => {
    const client = await as('limits');
    const deep = `node { ${'parent { '.repeat(20)}id${' }'.repeat(20)} }`;
    const tooDeep = subscribe(client, { nodeId: 'a' }, `kind ${deep}`);
    await tooDeep.until(1).catch(() => {});
    expect(codeOf(tooDeep.errors)).toEqual(['QUERY_TOO_COMPLEX']);

    const sub = subscribe(client, { nodeId: 'a' });
    await sub.ready('a.m', () => rename('a.m', 'counted'));
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/^canopy_live_subscriptions [1-9]/m);
    expect(metrics).toMatch(/^canopy_live_events_total [1-9]/m);
    expect(metrics).toMatch(/^canopy_live_delivery_lag_seconds_count [1-9]/m);
    await sub.close();
  });

  it('closes every WebSocket with 1012 when the server stops: clients reconnect and resume', async () => {
    const other = await startTestServer({ strategy });
    await buildTree(other, { id: 's', children: [{ id: 's.m' }] });
    let closedWith: number | undefined;
    const client = liveClient(other.url, {}, { closed: (event) => (closedWith = (event as { code: number }).code) });
    const sub = subscribe(client, { nodeId: 's' });
    await sub.ready('s.m', () =>
      other.gql('mutation { updateNode(id: "s.m", name: "poke") { id } }').then((r) => okData(r)),
    );
    await other.close();
    await eventually(
      'the close code',
      async () => closedWith,
      (code) => code !== undefined,
    );
    expect(closedWith).toBe(1012);
    await client.dispose();
  });

  it('closes a subscriber that does not read with SLOW_CONSUMER, holding a bounded queue', async () => {
    const dynamo = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    const store = storeFor(server.config, dynamo).store;
    const hub = new ChangeHub({ storeOf: () => store, waker: localWaker(), pollMs: 50, patienceMs: 2000 });
    try {
      const changes = await openTreeChanges(
        {
          store,
          tenant: null,
          canRead: () => true,
          readNode: async (id) => (await store.getNodes([id])).get(id) ?? null,
          ancestorsOf: async (node) =>
            (
              await store.ancestors([node], async (ids) => {
                const found = await store.getNodes(ids);
                return ids.map((id) => found.get(id) ?? null);
              })
            )[0]!,
          hub,
          resumeWithinMs: 3_600_000,
          queueLimit: 3,
        },
        { nodeId: 'a' },
      );
      for (let i = 0; i < 5; i++) okData(await rename('a.m', `unread ${i}`));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expect(changes.next()).rejects.toMatchObject({ code: 'SLOW_CONSUMER' });
    } finally {
      hub.close();
      dynamo.client.destroy();
    }
  });
});

describe('live subscriptions: API keys checked again while open', () => {
  const strategy = STRATEGIES_UNDER_TEST[0]!;
  const held = pauses();
  let server: TestServer;
  let dynamo: Dynamo;
  let admin: string;
  const rename = (id: string, name: string) =>
    server.gql(
      'mutation($id: ID!, $name: String!) { updateNode(id: $id, name: $name) { id } }',
      { id, name },
      {
        'x-api-key': admin,
      },
    );

  beforeAll(async () => {
    // Key records trusted 100 ms: a revocation reaches open streams within that.
    server = await startTestServer({
      strategy,
      middleware: held.middleware,
      env: { AUTH: 'apikey', API_KEY_CACHE_MS: '100', LIVE_MAX_SUBSCRIPTIONS_PER_CALLER: '2' },
    });
    dynamo = createDynamo({ endpoint: server.config.dynamodbEndpoint, region: server.config.region });
    admin = (await createApiKey(dynamo.doc, server.table, 'admin')).key;
    const gql = (query: string, variables?: Record<string, unknown>) =>
      server.gql(query, variables, { 'x-api-key': admin });
    await buildTree({ ...server, gql }, { id: 'k', children: [{ id: 'k.m' }, { id: 'k.x' }] });
  });
  afterAll(async () => {
    dynamo?.client.destroy();
    await server?.close();
  });

  /**
   * Opens a stream of tree k with `key` over `transport`; holds the next read of the key's record
   * (the stream's credentials checked again), makes `change` meanwhile, and a rename in the tree
   * that reaches this process's subscribers (a witness gets it); then lets the read go on. The
   * stream's events and errors, once it ended.
   */
  async function streamAcross(transport: Transport, key: { id: string; key: string }, change: () => Promise<unknown>) {
    const stream = openOver(transport, server.url, { 'x-api-key': key.key }, 'k');
    const witness = openOver('graphql-ws', server.url, { 'x-api-key': admin }, 'k');
    try {
      await stream.sub.ready('k.m', () => rename('k.m', 'poke'));
      await witness.sub.ready('k.m', () => rename('k.m', 'poke'));
      const check = held.next(
        (command, input) => command === 'BatchGetItemCommand' && JSON.stringify(input).includes(key.id),
      );
      await check.reached;
      await change();
      okData(await rename('k.x', `renamed after the change, over ${transport}`));
      await witness.sub.until(1);
      check.release();
      await endOf(stream.sub);
      return { events: stream.sub.events, errors: stream.sub.errors };
    } finally {
      await stream.dispose();
      await witness.dispose();
    }
  }

  for (const transport of TRANSPORTS) {
    it(`ends a stream over ${transport} with UNAUTHENTICATED once its key is revoked, queued change too`, async () => {
      const key = await createApiKey(dynamo.doc, server.table, `revoked over ${transport}`);
      const ended = await streamAcross(transport, key, () => revokeApiKey(dynamo.doc, server.table, key.id));
      expect(ended).toEqual({ events: [], errors: [streamError('the API key has been revoked', 'UNAUTHENTICATED')] });
    });

    it(`ends a stream over ${transport} as a new subscription is refused once its key no longer covers k`, async () => {
      const key = await createApiKey(dynamo.doc, server.table, `narrowed over ${transport}`, { trees: { k: 'read' } });
      const ended = await streamAcross(transport, key, () =>
        dynamo.doc.send(
          new UpdateCommand({
            TableName: server.table,
            Key: { pk: API_KEYS_PK, sk: key.id },
            UpdateExpression: 'SET trees = :trees',
            ExpressionAttributeValues: { ':trees': { other: 'read' } },
          }),
        ),
      );
      expect(ended).toEqual({ events: [], errors: [streamError('node "k" does not exist', 'NOT_FOUND', { id: 'k' })] });
      const again = openOver(transport, server.url, { 'x-api-key': key.key }, 'k');
      await endOf(again.sub);
      expect(again.sub.errors).toEqual(ended.errors);
      await again.dispose();
    });

    it(`takes nothing from a caller whose ${transport} stream closes while it authenticates`, async () => {
      const key = await createApiKey(dynamo.doc, server.table, `gone while authenticating over ${transport}`);
      const check = held.next(
        (command, input) => command === 'BatchGetItemCommand' && JSON.stringify(input).includes(key.id),
      );
      const gone = openOver(transport, server.url, { 'x-api-key': key.key }, 'k');
      await check.reached;
      await gone.dispose();
      // A request after the close: the server has met the close once it answers this.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      check.release();
      // The caller's two subscriptions (LIVE_MAX_SUBSCRIPTIONS_PER_CALLER) are both there to take.
      await eventually(
        'the closed connection let go',
        async () => {
          const both = [1, 2].map(() => openOver(transport, server.url, { 'x-api-key': key.key }, 'k'));
          try {
            await both[0]!.sub.ready('k.m', () => rename('k.m', 'poke'));
            await both[1]!.sub.ready('k.m', () => rename('k.m', 'poke'));
            return [...both[0]!.sub.errors, ...both[1]!.sub.errors];
          } catch (error) {
            return [error];
          } finally {
            for (const open of both) await open.dispose();
          }
        },
        (errors) => errors.length === 0,
      );
    });
  }
});
