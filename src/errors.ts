/**
 * The one error vocabulary of the project. Every layer throws `TreeError` with one of these
 * codes; `server/formatError.ts` is the single place that turns them into GraphQL errors.
 * Anything else that escapes is a bug and is masked as INTERNAL_SERVER_ERROR.
 */
export const ERROR_CODES = [
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'CYCLE',
  'VERSION_CONFLICT',
  'DEPTH_LIMIT',
  'QUERY_TOO_COMPLEX',
  'CONFLICT',
  'SUBTREE_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class TreeError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = 'TreeError';
    this.code = code;
    this.details = details;
  }
}

export function isTreeError(error: unknown, code?: ErrorCode): error is TreeError {
  return error instanceof TreeError && (code === undefined || error.code === code);
}

export const badInput = (message: string, details?: Record<string, unknown>): TreeError =>
  new TreeError('BAD_USER_INPUT', message, details);

export const notFound = (what: string, id: string): TreeError =>
  new TreeError('NOT_FOUND', `${what} "${id}" does not exist`, { id });
