import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createApiKey } from '../../../src/auth/apiKeys.js';
import { createDynamo } from '../../../src/dynamodb/client.js';
import { CallCounter } from '../../support/callCounter.js';
import { startTestServer, uniqueTable, type TestServer } from '../../support/server.js';
import { buildTree } from '../../support/tree.js';

const SECRET = 'a-shared-secret-of-at-least-32-bytes!';
const ISSUER = 'https://issuer.example';
const AUDIENCE = 'canopy';
const QUERY = '{ node(id: "a") { id } }';
const now = () => Math.floor(Date.now() / 1000);
const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An HS256 token with the given claims over sensible defaults (iss, aud, sub, exp in 5 minutes). */
function hsToken(claims: JWTPayload = {}, secret = SECRET): Promise<string> {
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'user-1', exp: now() + 300, ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(secret));
}

/** POST QUERY with these headers: the status, the body, and what the server said in WWW-Authenticate. */
async function call(server: TestServer, headers: Record<string, string>) {
  const response = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query: QUERY }),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: (await response.json()) as any,
  };
}

/** Refused with 401 UNAUTHENTICATED, the Bearer challenge, a message matching `why`, and no DynamoDB call. */
async function expectRefused(server: TestServer, counter: CallCounter, headers: Record<string, string>, why: RegExp) {
  const before = counter.snapshot();
  const answer = await call(server, headers);
  expect(answer.status, JSON.stringify(answer.body)).toBe(401);
  expect(answer.challenge).toBe('Bearer realm="canopy"');
  expect(answer.body.errors.map((e: any) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
  expect(answer.body.errors[0].message).toMatch(why);
  expect(answer.body.data).toBeUndefined();
  expect(counter.since(before)).toEqual({});
}

describe('AUTH=jwt with a shared secret', () => {
  const counter = new CallCounter();
  let server: TestServer;
  let open: TestServer;

  beforeAll(async () => {
    const table = uniqueTable();
    open = await startTestServer({ table });
    await buildTree(open, { id: 'a' });
    server = await startTestServer({
      table,
      middleware: counter.install,
      env: {
        AUTH: 'jwt',
        JWT_SECRET: SECRET,
        JWT_ISSUER: ISSUER,
        JWT_AUDIENCE: AUDIENCE,
        JWT_CLOCK_SKEW_SECONDS: '30',
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await open?.close();
  });

  it('answers a valid bearer token, and tolerates the clock skew', async () => {
    expect((await call(server, { authorization: `Bearer ${await hsToken()}` })).body.data).toEqual({
      node: { id: 'a' },
    });
    const justExpired = await hsToken({ exp: now() - 10 });
    expect((await call(server, { authorization: `bearer ${justExpired}` })).body.data).toEqual({ node: { id: 'a' } });
  });

  it('refuses missing, malformed, expired, early, foreign, tampered tokens: 401, no DynamoDB call', async () => {
    await expectRefused(server, counter, {}, /credentials are missing/);
    await expectRefused(server, counter, { authorization: 'Basic dXNlcjpwYXNz' }, /must be "Bearer <credential>"/);
    await expectRefused(server, counter, { authorization: 'Bearer not.a.jwt' }, /not a valid JWT/);
    await expectRefused(server, counter, { authorization: `Bearer ${await hsToken({ exp: now() - 120 })}` }, /expired/);
    await expectRefused(
      server,
      counter,
      { authorization: `Bearer ${await hsToken({ nbf: now() + 120 })}` },
      /not valid yet/,
    );
    await expectRefused(
      server,
      counter,
      { authorization: `Bearer ${await hsToken({ iss: 'https://other.example' })}` },
      /another issuer/,
    );
    await expectRefused(
      server,
      counter,
      { authorization: `Bearer ${await hsToken({ aud: 'other' })}` },
      /another audience/,
    );
    const noExpiry = await new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'u' })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    await expectRefused(server, counter, { authorization: `Bearer ${noExpiry}` }, /no expiry|exp/);
    await expectRefused(
      server,
      counter,
      { authorization: `Bearer ${await hsToken({}, 'another-secret-of-at-least-32-bytes!!')}` },
      /signature/,
    );
    const [header, , signature] = (await hsToken()).split('.');
    const forged = base64url({ iss: ISSUER, aud: AUDIENCE, sub: 'admin', exp: now() + 300 });
    const tampered = `${header}.${forged}.${signature}`;
    await expectRefused(server, counter, { authorization: `Bearer ${tampered}` }, /signature/);
  });

  it('refuses the algorithms it was not configured for: none, and an RS256 token against a shared secret', async () => {
    const claims = base64url({ iss: ISSUER, aud: AUDIENCE, sub: 'u', exp: now() + 300 });
    const unsecured = `${base64url({ alg: 'none', typ: 'JWT' })}.${claims}.`;
    await expectRefused(server, counter, { authorization: `Bearer ${unsecured}` }, /algorithm|not a valid JWT/);
    const { privateKey } = await generateKeyPair('RS256');
    const rs = await new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'u', exp: now() + 300 })
      .setProtectedHeader({ alg: 'RS256' })
      .sign(privateKey);
    await expectRefused(server, counter, { authorization: `Bearer ${rs}` }, /algorithm/);
  });

  it('takes a token from `npm run tree -- token`, which refuses what cannot sign one', async () => {
    const run = (env: Record<string, string>, extra: string[] = []) =>
      promisify(execFile)(
        process.execPath,
        [inject('treeScript'), 'token', '--sub', 'dev-1', '--hours', '1', ...extra],
        {
          cwd: fileURLToPath(new URL('../../../', import.meta.url)),
          env: { ...process.env, ...env },
        },
      );
    const { stdout } = await run({ AUTH: 'jwt', JWT_SECRET: SECRET, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE });
    expect((await call(server, { authorization: `Bearer ${stdout.trim()}` })).body.data).toEqual({ node: { id: 'a' } });
    // With --tenant, the token carries the tenant claim: in tenant acme, "a" does not exist.
    const inAcme = await run({ AUTH: 'jwt', JWT_SECRET: SECRET, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE }, [
      '--tenant',
      'acme',
    ]);
    expect(decodeJwt(inAcme.stdout.trim())).toMatchObject({ sub: 'dev-1', tenant: 'acme' });
    expect((await call(server, { authorization: `Bearer ${inAcme.stdout.trim()}` })).body.data).toEqual({ node: null });
    await expect(run({ AUTH: 'apikey' })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/needs AUTH=jwt with JWT_SECRET/),
    });
  });

  it('lets probes and CORS preflights through without credentials', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const preflight = await fetch(`${server.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
  });
});

describe('AUTH=jwt with a JWKS', () => {
  const counter = new CallCounter();
  let server: TestServer;
  let jwks: Server;
  let privateKey: CryptoKey;
  let publicJwk: Record<string, unknown>;

  const rsToken = (key: CryptoKey, claims: JWTPayload = {}) =>
    new SignJWT({ iss: ISSUER, sub: 'user-2', exp: now() + 300, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(key);

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    jwks = createServer((_req, res) =>
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [publicJwk] })),
    );
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
    server = await startTestServer({
      middleware: counter.install,
      env: { AUTH: 'jwt', JWT_JWKS_URL: jwksUrl, JWT_ISSUER: ISSUER },
    });
    await buildTree(
      {
        ...server,
        gql: async (query, variables) =>
          server.gql(query, variables, { authorization: `Bearer ${await rsToken(privateKey)}` }),
      },
      { id: 'a' },
    );
  });
  afterAll(async () => {
    await server?.close();
    jwks?.close();
  });

  it("answers a token signed by the issuer's key", async () => {
    expect((await call(server, { authorization: `Bearer ${await rsToken(privateKey)}` })).body.data).toEqual({
      node: { id: 'a' },
    });
  });

  it('refuses another key under the same kid, and HS256 keyed with the public key (confusion)', async () => {
    const other = await generateKeyPair('RS256');
    await expectRefused(server, counter, { authorization: `Bearer ${await rsToken(other.privateKey)}` }, /signature/);
    const confused = await new SignJWT({ iss: ISSUER, sub: 'u', exp: now() + 300 })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    await expectRefused(server, counter, { authorization: `Bearer ${confused}` }, /algorithm/);
  });
});

describe('AUTH=jwt with a JWKS that cannot be fetched', () => {
  it('answers 503 SERVICE_UNAVAILABLE, not 401: the token may well be good', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const server = await startTestServer({ env: { AUTH: 'jwt', JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` } });
    try {
      const { privateKey } = await generateKeyPair('RS256');
      const token = await new SignJWT({ sub: 'u', exp: now() + 300 })
        .setProtectedHeader({ alg: 'RS256', kid: 'k9' })
        .sign(privateKey);
      const answer = await call(server, { authorization: `Bearer ${token}` });
      expect(answer.status).toBe(503);
      expect(answer.body.errors.map((e: any) => e.extensions.code)).toEqual(['SERVICE_UNAVAILABLE']);
    } finally {
      await server.close();
    }
  });
});

describe('AUTH=apikey', () => {
  const counter = new CallCounter();
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const table = uniqueTable();
  let server: TestServer;
  let key: string;

  /** `npm run tree -- keys ...` on the test table. */
  const tree = (...args: string[]) => cli('keys', ...args);
  /** `npm run tree -- ...` on the test table. */
  const cli = (...args: string[]) =>
    promisify(execFile)(process.execPath, [inject('treeScript'), ...args], {
      cwd: root,
      env: {
        ...process.env,
        DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
        DYNAMODB_TABLE: table,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
      },
    });

  beforeAll(async () => {
    const created = await tree('create', '--name', 'the example app');
    key = /^(canopy_\S+)$/m.exec(created.stdout)![1]!;
    server = await startTestServer({ table, middleware: counter.install, env: { AUTH: 'apikey' } });
    await buildTree(
      { ...server, gql: (query, variables) => server.gql(query, variables, { authorization: `Bearer ${key}` }) },
      { id: 'a' },
    );
  });
  afterAll(() => server?.close());

  it('answers a key from the keys command, as a bearer credential or in X-API-Key', async () => {
    expect((await call(server, { authorization: `Bearer ${key}` })).body.data).toEqual({ node: { id: 'a' } });
    expect((await call(server, { 'x-api-key': key })).body.data).toEqual({ node: { id: 'a' } });
    // The changes made with a key are recorded as made by the key's name.
    const history = await server.gql('{ node(id: "a") { history { nodes { kind by } } } }', {}, { 'x-api-key': key });
    expect(history.body.data).toEqual({ node: { history: { nodes: [{ kind: 'CREATED', by: 'the example app' }] } } });
    const listed = await tree('list');
    expect(listed.stdout).toMatch(
      new RegExp(`^${key.split('_')[1]}  the example app  \\*=admin  created \\S+  active$`, 'm'),
    );
    // The secret (which may itself hold '_') is never listed.
    expect(listed.stdout).not.toContain(key.slice('canopy_'.length + 17));
  });

  it('refuses malformed keys with no call, and unknown ones with one read, remembered', async () => {
    await expectRefused(server, counter, {}, /credentials are missing/);
    await expectRefused(server, counter, { 'x-api-key': 'canopy_nope' }, /malformed/);
    const unknown = `canopy_0123456789abcdef_${'A'.repeat(43)}`;
    const before = counter.snapshot();
    expect((await call(server, { authorization: `Bearer ${unknown}` })).status).toBe(401);
    expect(counter.since(before)).toEqual({ BatchGetItemCommand: 1 });
    await expectRefused(server, counter, { authorization: `Bearer ${unknown}` }, /not valid/);
    const [prefix, id] = key.split('_');
    await expectRefused(server, counter, { authorization: `Bearer ${prefix}_${id}_${'B'.repeat(43)}` }, /not valid/);
  });

  it('gives a key named in a grant on a subtree that subtree: the grants command for bootstrap', async () => {
    // Side by side where nothing depends on the other (each command is a process of a few seconds).
    const [created, malformed] = await Promise.all([
      tree('create', '--name', 'supplier', '--trees', ''),
      cli('grants', 'add', 'a', 'user:x', 'read').then(
        () => null,
        (error: unknown) => error,
      ),
    ]);
    expect(malformed).toMatchObject({ code: 1, stderr: expect.stringMatching(/^BAD_USER_INPUT: principal must be/) });
    const supplier = { authorization: `Bearer ${/^(canopy_\S+)$/m.exec(created.stdout)![1]!}` };
    const child = 'mutation { createNode(input: { id: "a.s", parentId: "a", name: "S" }) { id } }';
    expect((await server.gql(child, {}, supplier)).body.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect((await cli('grants', 'add', 'a', 'key:supplier', 'write')).stdout).toBe(
      'key:supplier may now write a and its subtree\n',
    );
    const [written, listed] = await Promise.all([server.gql(child, {}, supplier), cli('grants', 'list', 'a')]);
    expect(written.body.data).toEqual({ createNode: { id: 'a.s' } });
    expect(listed.stdout).toMatch(/^key:supplier\twrite\t-\t\S+\n$/);
    expect((await cli('grants', 'remove', 'a', 'key:supplier')).stdout).toMatch(/removed/);
    await expect(cli('grants', 'remove', 'a', 'key:supplier')).rejects.toMatchObject({ code: 1 });
    expect((await server.gql('{ node(id: "a.s") { id } }', {}, supplier)).body.data).toEqual({ node: null });
  });

  it('limits a key made with --trees to those trees', async () => {
    const created = await tree('create', '--name', 'reader', '--trees', 'a=read');
    const limited = /^(canopy_\S+)$/m.exec(created.stdout)![1]!;
    expect((await tree('list')).stdout).toMatch(new RegExp(`^${limited.split('_')[1]}  reader  a=read  created `, 'm'));
    const read = await server.gql('{ node(id: "a") { id } }', {}, { authorization: `Bearer ${limited}` });
    expect(read.body.data).toEqual({ node: { id: 'a' } });
    const write = await server.gql(
      'mutation { updateNode(id: "a", name: "renamed") { id } }',
      {},
      { authorization: `Bearer ${limited}` },
    );
    expect(write.body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
    await expect(tree('create', '--trees', 'a=owner')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--trees takes ROOT_ID=read\|write\|admin/),
    });
  });

  it("binds a key made with --tenant to that tenant's trees", async () => {
    const created = await tree('create', '--name', 'acme sync', '--tenant', 'acme');
    const acme = /^(canopy_\S+)$/m.exec(created.stdout)![1]!;
    expect((await tree('list')).stdout).toMatch(
      new RegExp(`^${acme.split('_')[1]}  acme sync  tenant acme  \\*=admin  created `, 'm'),
    );
    const as = (query: string) => server.gql(query, {}, { authorization: `Bearer ${acme}` });
    // The default tenant's tree "a" is not acme's; acme's own "a" is another node.
    expect((await as('{ node(id: "a") { id } roots { nodes { id } } }')).body.data).toEqual({
      node: null,
      roots: { nodes: [] },
    });
    expect((await as('mutation { createNode(input: { id: "a", name: "acme a" }) { id name } }')).body.data).toEqual({
      createNode: { id: 'a', name: 'acme a' },
    });
    expect((await as('{ node(id: "a") { name } }')).body.data).toEqual({ node: { name: 'acme a' } });
    expect((await server.gql('{ node(id: "a") { name } }', {}, { authorization: `Bearer ${key}` })).body.data).toEqual({
      node: { name: 'a' },
    });
    await expect(tree('create', '--tenant', 'a#b')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--tenant takes a tenant name/),
    });
  });

  it('stops taking a revoked key (a server that reads it after the revocation)', async () => {
    const { doc, client } = createDynamo({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1' });
    const second = await createApiKey(doc, table, 'to revoke');
    client.destroy();
    expect((await call(server, { authorization: `Bearer ${second.key}` })).status).toBe(200);
    expect((await tree('revoke', second.id)).stdout).toMatch(new RegExp(`API key ${second.id} revoked at `));
    const fresh = await startTestServer({ table, env: { AUTH: 'apikey' } });
    try {
      const refused = await call(fresh, { authorization: `Bearer ${second.key}` });
      expect(refused.status).toBe(401);
      expect(refused.body.errors[0].message).toMatch(/revoked/);
      expect((await call(fresh, { authorization: `Bearer ${key}` })).status).toBe(200);
    } finally {
      await fresh.close();
    }
    await expect(tree('revoke', 'ffffffffffffffff')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no API key ffffffffffffffff/),
    });
  });
});

describe('the per-caller rate limit', () => {
  const counter = new CallCounter();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      middleware: counter.install,
      env: { AUTH: 'jwt', JWT_SECRET: SECRET, RATE_LIMIT_PER_SECOND: '0.5', RATE_LIMIT_BURST: '3' },
    });
  });
  afterAll(() => server?.close());

  it('answers a burst past the limit with 429 and Retry-After, and leaves other callers alone', async () => {
    const busy = { authorization: `Bearer ${await hsToken({ sub: 'busy', iss: undefined, aud: undefined })}` };
    const calm = { authorization: `Bearer ${await hsToken({ sub: 'calm', iss: undefined, aud: undefined })}` };
    for (let i = 0; i < 3; i++) expect((await call(server, busy)).status).toBe(200);
    const before = counter.snapshot();
    const refused = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...busy },
      body: JSON.stringify({ query: QUERY }),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('2');
    const body = (await refused.json()) as any;
    expect(body.errors.map((e: any) => [e.extensions.code, e.extensions.retryAfterSeconds])).toEqual([
      ['RATE_LIMITED', 2],
    ]);
    expect(counter.since(before)).toEqual({});
    expect((await call(server, calm)).status).toBe(200);
  });

  it('counts failed authentications against the address, then refuses it before any verification or read', async () => {
    const limited = await startTestServer({
      middleware: counter.install,
      env: { AUTH: 'apikey', RATE_LIMIT_PER_SECOND: '0.5', RATE_LIMIT_BURST: '2' },
    });
    try {
      const guess = (i: number) => ({
        authorization: `Bearer canopy_${String(i).padStart(16, '0')}_${'A'.repeat(43)}`,
      });
      const before = counter.snapshot();
      expect((await call(limited, guess(1))).status).toBe(401);
      expect((await call(limited, guess(2))).status).toBe(401);
      expect(counter.since(before)).toEqual({ BatchGetItemCommand: 2 });
      const after = counter.snapshot();
      const refused = await call(limited, guess(3));
      expect(refused.status).toBe(429);
      expect(refused.body.errors.map((e: any) => e.extensions.code)).toEqual(['RATE_LIMITED']);
      expect(counter.since(after)).toEqual({});
    } finally {
      await limited.close();
    }
  });
});
