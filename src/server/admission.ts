import type { IncomingHttpHeaders } from 'node:http';
import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ParseOptions,
  type ValidationRule,
} from 'graphql';
import type { Authenticate } from '../auth/authenticate.js';
import type { Caller } from '../auth/caller.js';
import { isTreeError, type TreeError } from '../errors.js';
import { armorRules } from './armorRules.js';
import { documentCache } from './documentCache.js';
import { tokenLimitRefusal, type OperationLimits } from './limitsPlugin.js';
import { trustedQuery, type TrustedDocuments } from './trustedDocuments.js';

/**
 * How an operation is admitted, whatever carries it: HTTP (graphqlHandler.ts, then Apollo) and the
 * live transports (liveTransports.ts: graphql-ws, graphql-sse) take the same steps, in this order,
 * from this one place. A rule added here applies to every transport:
 * 1. `caller`: who calls (AUTH), from the request's headers or a WebSocket's connection_init;
 * 2. `text`: the text it may run, trusted documents (TRUSTED_DOCUMENTS) then the token limit;
 * 3. `document`: the text parsed (`parseOptions`: the token limit again, by the parser) and
 *    validated (graphql-js's rules and `validationRules`: graphql-armor's limits). Over HTTP,
 *    Apollo parses and validates with the same `parseOptions` and `validationRules`.
 * What each transport adds is its own: CSRF and the rate limit (HTTP), subscriptions only and
 * their limits (live), the node estimate (an Apollo plugin, limitsPlugin.ts).
 */
export interface Admission {
  /** The caller, or why not (UNAUTHENTICATED; SERVICE_UNAVAILABLE when its keys cannot be read). */
  caller(headers: IncomingHttpHeaders): Promise<Caller>;
  /**
   * The query an operation runs, from the one it sends and the persisted query hash it names (the
   * manifest's text for a hash alone; a query that is not a string is left as sent without trusted
   * documents: Apollo's automatic persisted queries); or the refusal, PERSISTED_QUERY_NOT_IN_LIST
   * or QUERY_TOO_COMPLEX (HTTP 400).
   */
  text(query: unknown, hash: unknown): { query: unknown } | { refused: TreeError };
  /**
   * A query text's document, or its syntax or validation errors: the same text, the same answer,
   * kept for the last DOCUMENTS_KEPT texts (the document is shared: never mutate it).
   */
  document(text: string): { document: DocumentNode } | { errors: readonly GraphQLError[] };
  /** How a query text is parsed (Apollo's `parseOptions`). */
  readonly parseOptions: ParseOptions;
  /** What validates a document beside graphql-js's own rules (Apollo's `validationRules`). */
  readonly validationRules: ValidationRule[];
}

/**
 * How every transport answers a refusal of `Admission.caller`: its HTTP status (401 with
 * `WWW-Authenticate`, 503 when the keys cannot be read, 500 for anything else) and headers.
 */
export function callerRefusal(error: unknown): { status: number; headers: Record<string, string> } {
  if (isTreeError(error, 'UNAUTHENTICATED'))
    return { status: 401, headers: { 'www-authenticate': 'Bearer realm="canopy"' } };
  return { status: isTreeError(error, 'SERVICE_UNAVAILABLE') ? 503 : 500, headers: {} };
}

export interface AdmissionOptions {
  schema: GraphQLSchema;
  /** Who a request comes from (AUTH). */
  authenticate: Authenticate;
  /** Trusted documents: the only operations that run (null: any). */
  trusted: TrustedDocuments | null;
  limits: OperationLimits;
}

/** The distinct texts whose parsed and validated documents are kept (a live subscriber's is one of them). */
export const DOCUMENTS_KEPT = 1000;

type Parsed = { document: DocumentNode } | { errors: readonly GraphQLError[] };

/** The admission of every transport's operations. */
export function createAdmission(options: AdmissionOptions): Admission {
  const { schema, trusted, limits } = options;
  const parseOptions: ParseOptions = { maxTokens: limits.maxTokens };
  const validationRules = armorRules(limits);
  const documents = documentCache<Parsed>(DOCUMENTS_KEPT);
  const parseAndValidate = (text: string): Parsed => {
    let document: DocumentNode;
    try {
      document = parse(text, parseOptions);
    } catch (error) {
      if (error instanceof GraphQLError) return { errors: [error] };
      throw error;
    }
    const errors = validate(schema, document, [...specifiedRules, ...validationRules]);
    return errors.length > 0 ? { errors } : { document };
  };
  return {
    caller: (headers) => options.authenticate(headers),
    text(query, hash) {
      let allowed = query;
      if (trusted) {
        const listed = trustedQuery(trusted, query, hash);
        if (typeof listed !== 'string') return { refused: listed };
        allowed = listed;
      }
      const tooLong = tokenLimitRefusal(limits, allowed);
      return tooLong ? { refused: tooLong } : { query: allowed };
    },
    document: (text) => documents.get(text, parseAndValidate),
    parseOptions,
    validationRules,
  };
}
