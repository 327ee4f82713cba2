import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import { startTestServer, type GraphQLResponse, type TestServer } from '../../support/server.js';
import { buildTree } from '../../support/tree.js';

/**
 * What an error shows, through the real server outside production (where stacks may show): an
 * expected refusal is an answer, with its code and no stack; only a bug keeps its stack. And a
 * refused introspection names the setting that allows it.
 */

/** Fails every DynamoDB call while armed, with an error no layer expects: a bug's stand-in. */
function faultSwitch() {
  let armed = false;
  const middleware: DynamoOptions['middleware'] = (stack) =>
    stack.add(
      (next) => async (args) => {
        if (armed) throw Object.assign(new Error('simulated fault'), { name: 'SimulatedFault' });
        return next(args);
      },
      { step: 'initialize', name: 'simulatedFault' },
    );
  return { middleware, arm: (on: boolean) => (armed = on) };
}

const errorsOf = (response: GraphQLResponse) => response.body.errors ?? [];

describe('error details, outside production', () => {
  const fault = faultSwitch();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ middleware: fault.middleware, env: { INTROSPECTION: 'false' } });
    await buildTree(server, { id: 'e', children: [{ id: 'e-1' }] });
  });
  afterAll(() => server?.close());

  it('answers expected refusals with their code and no stack', async () => {
    const cases: Array<[string, Promise<GraphQLResponse>]> = [
      ['NOT_FOUND', server.gql('mutation { updateNode(id: "no-such-node", name: "x") { id } }')],
      ['CYCLE', server.gql('mutation { reparent(id: "e", newParentId: "e-1") { id } }')],
      ['BAD_USER_INPUT', server.gql('{ node(id: "e") { children(first: 0) { nodes { id } } } }')],
      ['BAD_USER_INPUT', server.gql('query($first: Int) { roots(first: $first) { nodes { id } } }', { first: 'ten' })],
      ['GRAPHQL_VALIDATION_FAILED', server.gql('{ node(id: "e") { id noSuchField } }')],
      ['GRAPHQL_PARSE_FAILED', server.gql('{ node(id: "e") { id ')],
    ];
    for (const [code, pending] of cases) {
      const errors = errorsOf(await pending);
      expect(
        errors.map((error) => error.extensions?.code),
        code,
      ).toEqual([code]);
      for (const error of errors) {
        expect(error.extensions, code).not.toHaveProperty('stacktrace');
        expect(JSON.stringify(error), code).not.toMatch(/\.(ts|js):\d+/);
      }
    }
  });

  it('refuses introspection naming the setting that allows it', async () => {
    const response = await server.gql('{ __schema { queryType { name } } }');
    expect(response.status).toBe(400);
    expect(errorsOf(response).map((error) => [error.message, error.extensions?.code])).toEqual([
      ['introspection is off: set INTROSPECTION=true to allow it', 'GRAPHQL_VALIDATION_FAILED'],
    ]);
    expect(errorsOf(response)[0]?.extensions).not.toHaveProperty('stacktrace');
  });

  it('keeps the stack of an unexpected error, a bug to look into', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fault.arm(true);
    try {
      const response = await server.gql('{ node(id: "e") { id } }');
      const [error] = errorsOf(response);
      expect(error?.extensions?.code).toBe('INTERNAL_SERVER_ERROR');
      expect(error?.message).toBe('simulated fault');
      expect(Array.isArray(error?.extensions?.stacktrace)).toBe(true);
      expect(error?.extensions?.stacktrace.length).toBeGreaterThan(1);
      expect(logged).toHaveBeenCalled();
    } finally {
      fault.arm(false);
      logged.mockRestore();
    }
  });
});
