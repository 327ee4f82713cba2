import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError } from 'graphql';
import { isTreeError } from '../errors.js';

/**
 * The one mapping from errors to what clients see. Typed errors (TreeError) keep their code and
 * message; Apollo's own request errors (parse, validation, bad variables) pass through; anything
 * else is a bug: logged, and masked as INTERNAL_SERVER_ERROR. Production never shows a stack.
 */
const PASS_THROUGH = new Set([
  'GRAPHQL_PARSE_FAILED',
  'GRAPHQL_VALIDATION_FAILED',
  'BAD_USER_INPUT',
  'BAD_REQUEST',
  'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED',
  'OPERATION_RESOLUTION_FAILURE',
  'QUERY_TOO_COMPLEX',
]);

export function createFormatError(production: boolean) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const strip = (extensions: Record<string, unknown> | undefined) => {
      if (!production || !extensions) return extensions;
      const { stacktrace: _stack, ...rest } = extensions;
      return rest;
    };
    if (isTreeError(original)) {
      return {
        message: original.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: { ...(original.details ?? {}), code: original.code, ...strip({ stacktrace: formatted.extensions?.stacktrace }) },
      };
    }
    const code = formatted.extensions?.code;
    // Apollo's answer to a persisted query whose hash does not match its text carries no code.
    if (formatted.message === 'provided sha does not match query') {
      return { message: formatted.message, extensions: { code: 'BAD_REQUEST' } };
    }
    if (code === 'GRAPHQL_PARSE_FAILED' && /more than \d+ tokens/.test(formatted.message)) {
      return { message: formatted.message, extensions: { code: 'QUERY_TOO_COMPLEX' } };
    }
    if (typeof code === 'string' && PASS_THROUGH.has(code)) {
      return { ...formatted, extensions: strip(formatted.extensions) };
    }
    console.error('unexpected error:', original);
    return {
      message: production ? 'Internal server error' : formatted.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', ...strip(production ? {} : { stacktrace: formatted.extensions?.stacktrace }) },
    };
  };
}
