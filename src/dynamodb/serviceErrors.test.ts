import { describe, expect, it } from 'vitest';
import { TreeError } from '../errors.js';
import { accessProblem, callDynamo, toServiceError } from './serviceErrors.js';

/** An error shaped like the ones the AWS SDK v3 throws. */
function sdkError(name: string, status?: number, message = name): Error {
  const error = new Error(message) as Error & { $metadata?: { httpStatusCode?: number } };
  error.name = name;
  if (status !== undefined) error.$metadata = { httpStatusCode: status };
  return error;
}

function expectUnavailable(error: unknown): void {
  const mapped = toServiceError(error);
  expect(mapped).toBeInstanceOf(TreeError);
  expect(mapped).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'DynamoDB is unavailable; try again later' });
}

describe('toServiceError', () => {
  it.each([
    'ProvisionedThroughputExceededException',
    'ThrottlingException',
    'RequestLimitExceeded',
    'LimitExceededException',
    'InternalServerError',
    'ServiceUnavailable',
    'TimeoutError',
    'RequestTimeout',
    'RequestTimeoutException',
  ])('maps %s to SERVICE_UNAVAILABLE', (name) => {
    expectUnavailable(sdkError(name, 400));
  });

  it.each([
    'CredentialsProviderError',
    'ExpiredTokenException',
    'UnrecognizedClientException',
    'AccessDeniedException',
    'ResourceNotFoundException',
  ])('maps a refused access, %s, to SERVICE_UNAVAILABLE, and says what to fix', (name) => {
    expectUnavailable(sdkError(name, 400));
    expect(accessProblem(sdkError(name, 400))).toMatch(new RegExp(`^[^:]+ \\(${name}\\): \\w`));
  });

  it('says nothing to fix for a failure a retry may cure', () => {
    expect(accessProblem(sdkError('ThrottlingException', 400))).toBeUndefined();
    expect(accessProblem(sdkError('toString', 400))).toBeUndefined();
  });

  it('keeps the original error name in the details', () => {
    expect((toServiceError(sdkError('ThrottlingException', 400)) as TreeError).details).toEqual({
      cause: 'ThrottlingException',
    });
  });

  it.each([500, 502, 503, 504])('maps an HTTP %i to SERVICE_UNAVAILABLE', (status) => {
    expectUnavailable(sdkError('UnknownError', status));
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND'])(
    'maps a %s network failure to SERVICE_UNAVAILABLE',
    (code) => {
      const error = Object.assign(new Error(`connect ${code} 127.0.0.1:8000`), { code });
      expectUnavailable(error);
    },
  );

  it('maps a network failure known only by its message', () => {
    expectUnavailable(new Error('socket hang up'));
    expectUnavailable(new AggregateError([], 'connect ECONNREFUSED ::1:8000'));
  });

  it.each([
    sdkError('ValidationException', 400, 'One or more parameter values were invalid'),
    sdkError('ConditionalCheckFailedException', 400),
    sdkError('TransactionCanceledException', 400),
    new TypeError('x is not a function'),
  ])('passes $name through unchanged', (error) => {
    expect(toServiceError(error)).toBe(error);
  });

  it('passes a TreeError through unchanged', () => {
    const error = new TreeError('NOT_FOUND', 'node "a" does not exist');
    expect(toServiceError(error)).toBe(error);
  });

  it('passes through values that are not errors', () => {
    expect(toServiceError(undefined)).toBeUndefined();
    expect(toServiceError(null)).toBeNull();
    expect(toServiceError('text')).toBe('text');
  });
});

describe('callDynamo', () => {
  it('returns the result of the call', async () => {
    await expect(callDynamo(async () => 42)).resolves.toBe(42);
  });

  it('throws the mapped error', async () => {
    await expect(callDynamo(() => Promise.reject(sdkError('ThrottlingException', 400)))).rejects.toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
    });
    const validation = sdkError('ValidationException', 400);
    await expect(callDynamo(() => Promise.reject(validation))).rejects.toBe(validation);
  });
});
