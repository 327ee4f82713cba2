import { ApolloServerValidationErrorCode } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { isTreeError, type TreeError } from '../errors.js';

/**
 * The one mapping from errors to what clients see, decided by structure, never by message text:
 * - a TreeError (errors.ts), thrown anywhere or wrapped by graphql-js or Apollo, keeps its code,
 *   message and typed details;
 * - Apollo's own request errors pass through by their code (parse, validation, bad variables,
 *   persisted queries); one of them carries an HTTP status but no code (a persisted query whose
 *   hash does not match its text) and is BAD_REQUEST;
 * - anything else is a bug: logged, and masked as INTERNAL_SERVER_ERROR.
 * A typed error or a request error is an answer, not a failure of the server: it never carries a
 * stack. An unexpected error shows its stack outside production, never in production.
 * Apollo's refusal of introspection (its validation code INTROSPECTION_DISABLED) names the
 * setting that allows it.
 */
const PASS_THROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
]);

/** What a refused introspection answers, in every mode (Apollo's own text names its API). */
export const INTROSPECTION_OFF = 'introspection is off: set INTROSPECTION=true to allow it';

/** The TreeError behind an error, through the GraphQLErrors that wrap it. */
function treeErrorOf(error: unknown): TreeError | undefined {
  for (let e = error, depth = 0; e && depth < 4; depth++) {
    if (isTreeError(e)) return e;
    e = e instanceof GraphQLError ? e.originalError : undefined;
  }
  return undefined;
}

/** An Apollo request error that sets an HTTP 4xx status without a code. */
const isUncodedRequestError = (error: unknown): boolean => {
  if (!(error instanceof GraphQLError) || error.extensions.code !== undefined) return false;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
};

export function createFormatError(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const treeError = treeErrorOf(error);
    if (treeError) {
      // A runtime refusal names the field it stopped at.
      const at = treeError.code === 'QUERY_TOO_COMPLEX' && formatted.path ? ` (at ${formatted.path.join('.')})` : '';
      return {
        message: `${treeError.message}${at}`,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { ...(treeError.details ?? {}), code: treeError.code },
      };
    }
    if (isUncodedRequestError(error)) {
      return { message: formatted.message, extensions: { code: 'BAD_REQUEST' } };
    }
    const code = formatted.extensions?.code;
    if (typeof code === 'string' && PASS_THROUGH.has(code)) {
      const { stacktrace: _stack, ...extensions } = formatted.extensions ?? {};
      const introspectionOff =
        extensions.validationErrorCode === ApolloServerValidationErrorCode.INTROSPECTION_DISABLED;
      return { ...formatted, message: introspectionOff ? INTROSPECTION_OFF : formatted.message, extensions };
    }
    console.error('unexpected error:', error instanceof GraphQLError ? (error.originalError ?? error) : error);
    return {
      message: production ? 'Internal server error' : formatted.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: {
        code: 'INTERNAL_SERVER_ERROR',
        ...(production ? {} : { stacktrace: formatted.extensions?.stacktrace }),
      },
    };
  };
}
