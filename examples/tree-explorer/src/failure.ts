import { CombinedGraphQLErrors, ServerError, ServerParseError } from '@apollo/client/errors';
import { authHeaders, ENDPOINT, TOKEN } from './client.ts';
import { diagnoseConnection } from './diagnoseConnection.ts';

/** A refusal or a failure as the page shows it: the server's `extensions.code` and message. */
export interface Failure {
  code: string;
  message: string;
}

/** No HTTP answer reached the page: fetch rejects with a TypeError ("Failed to fetch"). */
export function isNetworkError(error: unknown): boolean {
  return error instanceof Error && error.name === 'TypeError';
}

/** The server's reason (`extensions.code`: CYCLE, NOT_FOUND, ...), or what went wrong on the way. */
export function failureOf(error: unknown): Failure {
  if (CombinedGraphQLErrors.is(error)) {
    const first = error.errors[0];
    const code = first?.extensions?.code;
    return { message: first?.message ?? error.message, code: typeof code === 'string' ? code : 'GRAPHQL_ERROR' };
  }
  if (ServerError.is(error)) {
    return {
      message: `The server answered HTTP ${error.statusCode}: ${error.bodyText.slice(0, 200) || error.message}`,
      code: `HTTP_${error.statusCode}`,
    };
  }
  if (ServerParseError.is(error))
    return { message: `The server's answer is not GraphQL: ${error.message}`, code: 'BAD_RESPONSE' };
  if (isNetworkError(error))
    return { message: `Cannot reach the Canopy server at ${ENDPOINT}.`, code: 'NETWORK_ERROR' };
  return { message: error instanceof Error ? error.message : String(error), code: 'ERROR' };
}

/**
 * failureOf, and for a request that got no answer, why (diagnoseConnection): the server is not
 * running at that address, or it does not allow this page's origin (CORS_ORIGINS).
 */
export async function explainFailure(error: unknown): Promise<Failure> {
  if (!isNetworkError(error)) return failureOf(error);
  const origin = window.location.origin;
  switch (await diagnoseConnection(ENDPOINT, authHeaders(TOKEN))) {
    case 'unreachable':
      return { code: 'UNREACHABLE', message: `Cannot reach the Canopy server at ${ENDPOINT}. Is it running?` };
    case 'origin-refused':
      return {
        code: 'ORIGIN_NOT_ALLOWED',
        message:
          `The Canopy server at ${ENDPOINT} answers, but not to pages from ${origin}: add ${origin} to its ` +
          `CORS_ORIGINS (comma-separated), or serve the app through the Vite dev proxy (npm run example).`,
      };
    case 'reachable':
      return {
        code: 'NETWORK_ERROR',
        message:
          `A request to ${ENDPOINT} failed on its way ` +
          `(${error instanceof Error ? error.message : String(error)}); the server answers now.`,
      };
  }
}
