/**
 * The one error vocabulary of the project. Every layer throws `TreeError` with one of these
 * codes and the typed details of that code; `server/formatError.ts` is the single place that
 * turns errors into what clients see (docs/contract.md lists the codes). Anything else that
 * escapes is a bug and is masked as INTERNAL_SERVER_ERROR.
 */
export const ERROR_CODES = [
  'BAD_USER_INPUT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'CYCLE',
  'VERSION_CONFLICT',
  'PARENT_CONFLICT',
  'DEPTH_LIMIT',
  'QUERY_TOO_COMPLEX',
  'CONFLICT',
  'SUBTREE_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
  'BAD_REQUEST',
  'UNAUTHENTICATED',
  'RATE_LIMITED',
  'FORBIDDEN',
  'PERSISTED_QUERY_NOT_IN_LIST',
  'RESYNC_REQUIRED',
  'SLOW_CONSUMER',
  'LIMIT_EXCEEDED',
  'RESTORE_EXPIRED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** What each code's `extensions` carry besides the code itself. */
export interface ErrorDetails {
  BAD_USER_INPUT: { field?: string; kind?: string };
  NOT_FOUND: { id: string };
  /** `id`: the node taken; for a path key (`pathKey`), its holder among the children of `parentId`. */
  ALREADY_EXISTS: { id: string; parentId?: string; pathKey?: string };
  CYCLE: Record<string, never>;
  VERSION_CONFLICT: { currentVersion: number };
  /** `id`: the node; `currentParentId`: its parent now (null: it is a root). */
  PARENT_CONFLICT: { id: string; currentParentId: string | null };
  /**
   * `maxDepth` is MAX_TREE_DEPTH; under the nested-set strategy, a node whose document key would
   * pass DynamoDB's sort key limit gets `keyBytes` and `maxKeyBytes` instead; a node whose sibling
   * position would pass its limit (a gap used up), `positionLength` and `maxPositionLength`.
   */
  DEPTH_LIMIT:
    | { depth: number; maxDepth: number }
    | { depth: number; keyBytes: number; maxKeyBytes: number }
    | { positionLength: number; maxPositionLength: number };
  QUERY_TOO_COMPLEX: Record<string, never>;
  /**
   * `jobId`: the open job whose subtree the write overlaps. An undo refused: `id` (the node),
   * `changeId` (the change to undo) and, when known, the later change of the node
   * (`laterChangeId`, `laterKind`, `by`, `at`).
   */
  CONFLICT: {
    jobId?: string;
    id?: string;
    changeId?: string;
    laterChangeId?: string;
    laterKind?: string;
    by?: string | null;
    at?: string;
  };
  /** Deprecated: no longer produced (moves of any size run as jobs); kept for clients that name it. */
  SUBTREE_TOO_LARGE: { subtreeSize: number; items: number; limit: number };
  /** `jobId`: a delete applied whose job is still counting its subtree (docs/contract.md). */
  SERVICE_UNAVAILABLE: { cause?: string; unprocessed?: number; jobId?: string };
  BAD_REQUEST: Record<string, never>;
  UNAUTHENTICATED: Record<string, never>;
  /** `retryAfterSeconds`: also in the Retry-After header. */
  RATE_LIMITED: { retryAfterSeconds: number };
  /** `id`: the node whose tree the caller may read but not change. */
  FORBIDDEN: { id?: string };
  PERSISTED_QUERY_NOT_IN_LIST: Record<string, never>;
  /** A deleted subtree past UNDO_RETENTION_DAYS: `id` (its root), `deletedAt`. */
  RESTORE_EXPIRED: { id: string; deletedAt: string };
  /** A treeChanges cursor older than CHANGE_RETENTION_HOURS: read the subtree again, then subscribe afresh. */
  RESYNC_REQUIRED: { retentionHours: number };
  /** A subscriber that fell `queued` events behind: closed; it resumes from its last cursor. */
  SLOW_CONSUMER: { queued: number };
  /** Over a per-process or per-caller limit of live subscriptions (`limit`). */
  LIMIT_EXCEEDED: { limit: number };
}

export class TreeError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C;
  readonly details: ErrorDetails[C] | undefined;
  /**
   * The GraphQL extensions (graphql-js and Apollo copy them when they wrap the error). `http`
   * sets the response status of an error refused before execution; Apollo removes it.
   */
  readonly extensions: Record<string, unknown>;

  constructor(code: C, message: string, details?: ErrorDetails[C], options: { httpStatus?: number } = {}) {
    super(message);
    this.name = 'TreeError';
    this.code = code;
    this.details = details;
    this.extensions = {
      ...details,
      code,
      ...(options.httpStatus === undefined ? {} : { http: { status: options.httpStatus } }),
    };
  }
}

export function isTreeError<C extends ErrorCode>(error: unknown, code?: C): error is TreeError<C> {
  return error instanceof TreeError && (code === undefined || error.code === code);
}

export const badInput = (message: string, details?: ErrorDetails['BAD_USER_INPUT']): TreeError<'BAD_USER_INPUT'> =>
  new TreeError('BAD_USER_INPUT', message, details);

export const notFound = (what: string, id: string): TreeError<'NOT_FOUND'> =>
  new TreeError('NOT_FOUND', `${what} "${id}" does not exist`, { id });

/** An operation refused before it runs (HTTP 400). */
export const tooComplex = (message: string): TreeError<'QUERY_TOO_COMPLEX'> =>
  new TreeError('QUERY_TOO_COMPLEX', message, undefined, { httpStatus: 400 });

/** A request that is not a GraphQL request at all (HTTP 400). */
export const badRequest = (message: string): TreeError<'BAD_REQUEST'> =>
  new TreeError('BAD_REQUEST', message, undefined, { httpStatus: 400 });

/** Missing, expired or invalid credentials (HTTP 401), refused before any operation runs. */
export const unauthenticated = (message: string): TreeError<'UNAUTHENTICATED'> =>
  new TreeError('UNAUTHENTICATED', message, undefined, { httpStatus: 401 });

/** A caller over its rate limit (HTTP 429, Retry-After), refused before any operation runs. */
export const rateLimited = (retryAfterSeconds: number): TreeError<'RATE_LIMITED'> =>
  new TreeError(
    'RATE_LIMITED',
    `too many requests from this caller; retry in ${retryAfterSeconds} s`,
    { retryAfterSeconds },
    { httpStatus: 429 },
  );

/**
 * A start refused for a reason the person starting it can fix (an invalid variable, a port taken,
 * no Java, a table Canopy cannot use): its message is printed whole on stderr, with no stack, and
 * the process exits with code 2 (`npm start` and the `tree` commands alike).
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
