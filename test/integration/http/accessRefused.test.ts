import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoOptions } from '../../../src/dynamodb/client.js';
import { capturedLogger } from '../../support/capturedLogger.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { okData } from '../../support/tree.js';

type MiddlewareStack = Parameters<NonNullable<DynamoOptions['middleware']>>[0];

/**
 * DynamoDB refusing a running server's access (a role that lost an action, credentials that
 * expired, the table deleted): the caller gets SERVICE_UNAVAILABLE, never the SDK's error, and
 * the log says in one line what the operator must fix, with DynamoDB's own words beside it.
 */
describe('DynamoDB refusing access after the start', () => {
  let server: TestServer;
  let refusal: { name: string; message: string } | undefined;
  const { logger, lines } = capturedLogger();
  /** Answers every call with `refusal` while it is set, as DynamoDB answers (after the SDK's retries). */
  const refuse = (stack: MiddlewareStack) =>
    stack.add(
      (next) => async (args) => {
        if (!refusal) return next(args);
        throw Object.assign(new Error(refusal.message), { name: refusal.name, $metadata: { httpStatusCode: 400 } });
      },
      { step: 'deserialize', name: 'testAccessRefusal' },
    );

  beforeAll(async () => {
    server = await startTestServer({ middleware: refuse, logger });
    okData(await server.gql('mutation { createNode(input: { id: "r", name: "root" }) { id } }'));
  });
  afterAll(() => server.close());

  it('logs no refusal, nor any failure, at a start that creates its table', () => {
    expect(lines.filter((line) => (line.level as number) >= 40)).toEqual([]);
  });

  it.each([
    ['AccessDeniedException', 'is not authorized to perform: dynamodb:BatchGetItem', "the process's role may not make"],
    ['ExpiredTokenException', 'The security token included in the request is expired', 'have expired'],
    ['ResourceNotFoundException', 'Requested resource not found', 'the table does not exist'],
  ])('%s: SERVICE_UNAVAILABLE to the caller, what to fix in the log', async (name, message, logged) => {
    const before = lines.length;
    refusal = { name, message };
    try {
      const answer = await server.gql('{ node(id: "r") { id name } }');
      expect(answer.body.errors?.map((e: any) => e.extensions)).toEqual([{ code: 'SERVICE_UNAVAILABLE', cause: name }]);
      expect(JSON.stringify(answer.body)).not.toContain(message);
    } finally {
      refusal = undefined;
    }
    const refused = lines.slice(before).filter((line) => line.msg !== undefined && line.level === 50);
    expect(refused).toEqual([
      expect.objectContaining({
        command: 'BatchGetItem',
        error: name,
        detail: message,
        msg: expect.stringContaining(logged),
      }),
    ]);
    expect(refused[0]!.msg).toMatch(new RegExp(`^DynamoDB call refused: [^:]+ \\(${name}\\): \\w`));
    expect(okData(await server.gql('{ node(id: "r") { name } }'))).toEqual({ node: { name: 'root' } });
  });
});
