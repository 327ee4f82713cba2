import { TreeError, isTreeError } from '../errors.js';

/**
 * What the SDK throws once its own retries are spent (throttling, timeouts, refused
 * connections) becomes SERVICE_UNAVAILABLE; anything else is passed on unchanged.
 */
const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
]);
const NETWORK = /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|socket hang up/;

export function toServiceError(error: unknown): unknown {
  if (isTreeError(error)) return error;
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode ?? 0;
  if (
    UNAVAILABLE.has(e?.name ?? '') ||
    status >= 500 ||
    NETWORK.test(`${e?.code ?? ''} ${e?.name ?? ''} ${e?.message ?? ''}`)
  ) {
    return new TreeError('SERVICE_UNAVAILABLE', 'DynamoDB is unavailable; try again later', {
      cause: e?.name,
    });
  }
  return error;
}

/** Runs one SDK call and maps its failure with toServiceError. */
export async function callDynamo<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toServiceError(error);
  }
}
