import { TreeError, isTreeError } from '../errors.js';

/**
 * What the SDK throws once its own retries are spent (throttling, timeouts, refused
 * connections), and a refusal of the process's access (ACCESS), becomes SERVICE_UNAVAILABLE;
 * anything else is passed on unchanged.
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

/**
 * What DynamoDB answers a process that may not use the table (credentials gone or expired, a role
 * without the action, the table deleted under a running server): no retry helps, the operator
 * must act. The caller gets SERVICE_UNAVAILABLE; the log says what to fix (accessProblem).
 */
const CREDENTIALS = 'give the process AWS credentials: a role (ECS, Lambda, EC2), a profile, or keys';
const ACCESS: Record<string, string> = {
  CredentialsProviderError: `no AWS credentials could be loaded: ${CREDENTIALS}`,
  ExpiredTokenException: `the AWS credentials have expired: ${CREDENTIALS}`,
  ExpiredToken: `the AWS credentials have expired: ${CREDENTIALS}`,
  UnrecognizedClientException: `DynamoDB does not recognize the AWS credentials: ${CREDENTIALS}`,
  InvalidSignatureException: `DynamoDB refused the credentials' signature: ${CREDENTIALS}`,
  MissingAuthenticationTokenException: `the call carried no AWS credentials: ${CREDENTIALS}`,
  AccessDeniedException:
    "the process's role may not make this call on the table: give it the stack's DynamoDB actions on the " +
    'table (docs/deploy.md)',
  ResourceNotFoundException:
    'the table does not exist: check DYNAMODB_TABLE and AWS_REGION (the server creates a missing table at ' +
    'start, when its role may)',
};

/**
 * For a failure no retry helps, what the operator must fix, in one line naming DynamoDB's answer.
 * Undefined for any other failure.
 */
export function accessProblem(error: unknown): string | undefined {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  const [what, fix] = Object.hasOwn(ACCESS, name) ? ACCESS[name]!.split(/: (.*)/s) : [];
  return what && `${what} (${name}): ${fix}`;
}

export function toServiceError(error: unknown): unknown {
  if (isTreeError(error)) return error;
  const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode ?? 0;
  if (
    UNAVAILABLE.has(e?.name ?? '') ||
    accessProblem(e) !== undefined ||
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
