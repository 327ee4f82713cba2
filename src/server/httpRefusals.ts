import type { GraphQLFormattedError } from 'graphql';
import type { ServerResponse } from 'node:http';
import { badRequest, rateLimited } from '../errors.js';
import { callerRefusal } from './admission.js';

/** An error as clients see it (formatError.ts). */
export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

/** What body-parser's JSON parser fails with (malformed JSON, too large, bad charset). */
export interface BodyError {
  status?: number;
  message?: string;
}

/** How /graphql refuses a request before Apollo runs it: a JSON body of one error, as clients see it. */
export interface HttpRefusals {
  /** `error` with the HTTP status `status`. */
  refuse(res: ServerResponse, status: number, error: unknown): void;
  /** A body-parser failure: its 4xx status (400: not valid JSON), else 500. */
  refuseBody(res: ServerResponse, error: BodyError): void;
  /** Authentication's refusal: 401 with the scheme to use, or 503 when its keys cannot be read. */
  refuseCaller(res: ServerResponse, error: unknown): void;
  /** The rate limit's: 429 RATE_LIMITED, with `Retry-After`. */
  tooMany(res: ServerResponse, retryAfter: number): void;
}

/** The refusals of /graphql, each formatted by `formatError`. */
export function httpRefusals(formatError: FormatError): HttpRefusals {
  const refuse = (res: ServerResponse, status: number, error: unknown): void => {
    sendJson(res, status, { errors: [formatError({ message: 'Internal server error' }, error)] });
  };
  return {
    refuse,
    refuseBody(res, error) {
      const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
      refuse(
        res,
        status,
        status === 500
          ? error
          : badRequest(status === 400 ? 'The request body is not valid JSON' : (error.message ?? 'Bad request')),
      );
    },
    refuseCaller(res, error) {
      const { status, headers } = callerRefusal(error);
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
      refuse(res, status, error);
    },
    tooMany(res, retryAfter) {
      res.setHeader('retry-after', String(retryAfter));
      refuse(res, 429, rateLimited(retryAfter));
    },
  };
}

/** Answers `body` as JSON with `status`. */
function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}
