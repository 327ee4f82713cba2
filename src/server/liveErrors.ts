import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { isTreeError } from '../errors.js';

/** A formatted error (formatError.ts) as a GraphQLError whose JSON is that. */
export function clientError(formatted: GraphQLFormattedError): GraphQLError {
  return new GraphQLError(formatted.message, { extensions: formatted.extensions ?? {} });
}

/** Whatever refused a subscription as a GraphQLError, a TreeError's extensions (its code) kept. */
export function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new GraphQLError(message, {
    originalError: error instanceof Error ? error : undefined,
    extensions: isTreeError(error) ? error.extensions : {},
  });
}

/** An event's result with its errors as clients see them. */
export function formatted<R extends { errors?: readonly GraphQLError[] }>(
  result: R,
  formatError: (e: GraphQLError) => GraphQLError,
): R {
  if (!result.errors?.length) return result;
  return { ...result, errors: result.errors.map(formatError) };
}
