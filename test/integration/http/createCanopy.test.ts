import { ApolloServer } from '@apollo/server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigError } from '../../../src/config.js';
import { createCanopy, type Canopy, type CanopyContext } from '../../../src/server/createCanopy.js';
import { uniqueTable } from '../../support/server.js';

/**
 * The library entry (src/server/createCanopy.ts) in a plain Apollo Server, on the test run's
 * DynamoDB Local: the packed package's own test (test/e2e/package.test.ts) runs the same from an
 * installed tarball, in the long suite.
 */

const SECRET = 'a-library-test-secret-of-32-bytes-or-more';

describe('Canopy mounted in an application’s Apollo Server', () => {
  let canopy: Canopy;
  let server: ApolloServer<CanopyContext>;
  const env = (extra: Record<string, string> = {}) => ({
    DYNAMODB_ENDPOINT: inject('dynamoEndpoint'),
    DYNAMODB_TABLE: uniqueTable(),
    LOG_LEVEL: 'silent',
    ...extra,
  });

  beforeAll(async () => {
    canopy = await createCanopy({ env: env({ AUTH: 'jwt', JWT_SECRET: SECRET, SEED_DEMO: 'false' }) });
    server = new ApolloServer<CanopyContext>({
      schema: canopy.schema,
      plugins: canopy.plugins,
      validationRules: canopy.validationRules,
      formatError: canopy.formatError,
    });
    await server.start();
  });
  afterAll(async () => {
    await server.stop();
    await canopy.stop();
  });

  it('refuses a request without a token as the server does: 401, UNAUTHENTICATED', async () => {
    const failure = await canopy.context({ req: { headers: {} } }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } });
    expect(canopy.formatError({ message: 'x' }, failure)).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('creates and reads with the caller of its token, the cost reported', async () => {
    const { SignJWT } = await import('jose');
    const token = await new SignJWT({ sub: 'app', exp: Math.floor(Date.now() / 1000) + 60 })
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(SECRET));
    const contextValue = await canopy.context({ req: { headers: { authorization: `Bearer ${token}` } } });
    const created = await server.executeOperation<{ createNode: { id: string; name: string } }>(
      { query: 'mutation { createNode(input: { name: "Shelf" }) { id name } }' },
      { contextValue },
    );
    expect(created.body.kind).toBe('single');
    if (created.body.kind !== 'single') return;
    expect(created.body.singleResult.errors).toBeUndefined();
    expect(created.body.singleResult.data?.createNode.name).toBe('Shelf');
    expect(created.body.singleResult.extensions?.dynamodb).toMatchObject({ itemsWritten: expect.any(Number) });
    // The server's limits apply: a nesting this deep is refused.
    const nested = `${'children(first: 1) { nodes { '.repeat(30)}id${' } }'.repeat(30)}`;
    const deep = `{ roots(first: 1) { nodes { ${nested} } } }`;
    const refused = await server.executeOperation({ query: deep }, { contextValue });
    expect(refused.body.kind === 'single' && refused.body.singleResult.errors?.[0]?.extensions?.code).toBe(
      'QUERY_TOO_COMPLEX',
    );
  });

  it('refuses TRUSTED_DOCUMENTS, which the application’s server applies, with a ConfigError', async () => {
    const refusal = await createCanopy({ env: env({ TRUSTED_DOCUMENTS: 'manifest.json' }) }).catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).message).toMatch(/TRUSTED_DOCUMENTS: a mounted Canopy/);
  });
});
