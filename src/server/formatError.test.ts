import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_CODES, TreeError, type ErrorCode } from '../errors.js';
import { createFormatError, INTROSPECTION_OFF } from './formatError.js';

/** What Apollo hands formatError outside production: the error with its stack, as lines. */
const STACK = ['Error: boom', '    at resolve (src/graphql/node.resolver.ts:12:5)'];
const formatted = (message: string, extensions: Record<string, unknown>): GraphQLFormattedError => ({
  message,
  extensions: { ...extensions, stacktrace: STACK },
});

/** A TreeError as Apollo hands it over: wrapped by graphql-js in a GraphQLError. */
const wrapped = (code: ErrorCode): GraphQLError =>
  new GraphQLError('wrapped', { originalError: new TreeError(code, `refused: ${code}`) });

/** Apollo's own request errors: its codes, set on a GraphQLError it creates. */
const REQUEST_CODES = [
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
];

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each([
  ['outside production', false],
  ['in production', true],
])('formatError %s', (_mode, production) => {
  const format = createFormatError(production);

  it.each(ERROR_CODES)('answers a %s TreeError without a stack', (code) => {
    const answer = format(formatted('wrapped', { code }), wrapped(code));
    expect(answer.message).toBe(`refused: ${code}`);
    expect(answer.extensions).toEqual({ code });
  });

  it.each(REQUEST_CODES)("answers Apollo's %s without a stack", (code) => {
    const error = new GraphQLError('refused', { extensions: { code } });
    const answer = format(formatted('refused', { code }), error);
    expect(answer).toEqual({ message: 'refused', extensions: { code } });
  });

  it('answers an uncoded request error (a persisted query hash that does not match) as BAD_REQUEST', () => {
    const error = new GraphQLError('provided sha does not match query', { extensions: { http: { status: 400 } } });
    const answer = format(formatted(error.message, { code: 'INTERNAL_SERVER_ERROR' }), error);
    expect(answer).toEqual({ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } });
  });

  it('names the setting when it refuses introspection', () => {
    const extensions = { code: 'GRAPHQL_VALIDATION_FAILED', validationErrorCode: 'INTROSPECTION_DISABLED' };
    const apollo = 'GraphQL introspection is not allowed by Apollo Server, but the query contained __schema or __type.';
    const answer = format(formatted(apollo, extensions), new GraphQLError(apollo, { extensions }));
    expect(answer).toEqual({ message: INTROSPECTION_OFF, extensions });
    expect(INTROSPECTION_OFF).toBe('introspection is off: set INTROSPECTION=true to allow it');
  });

  const stack = production ? 'masked, without' : 'with';
  it(`answers an unexpected error as INTERNAL_SERVER_ERROR, ${stack} its stack`, () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const error = new GraphQLError('boom', { originalError: new TypeError('boom') });
    const answer = format(formatted('boom', { code: 'INTERNAL_SERVER_ERROR' }), error);
    expect(answer.extensions).toEqual(
      production ? { code: 'INTERNAL_SERVER_ERROR' } : { code: 'INTERNAL_SERVER_ERROR', stacktrace: STACK },
    );
    expect(answer.message).toBe(production ? 'Internal server error' : 'boom');
    expect(logged).toHaveBeenCalledOnce();
  });
});
