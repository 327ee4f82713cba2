import type { IncomingHttpHeaders } from 'node:http';
import {
  getOperationAST,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLError,
  type GraphQLSchema,
} from 'graphql';
import { TreeError } from '../errors.js';
import type { Admission } from './admission.js';
import type { LiveConnections } from './liveConnections.js';
import { asGraphQLError } from './liveErrors.js';
import type { SubscriptionSlots } from './subscriptionSlots.js';

/** What a graphql-ws subscribe message or a graphql-sse request sends. */
export interface SubscribeParams {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
  extensions?: unknown;
}

/** The execution of one subscription and the release of its slot, or the errors that refuse it. */
export type Admitted = { args: ExecutionArgs; release: () => void } | { errors: GraphQLError[] };

/**
 * Admits one subscription on connection `key` (a WebSocket's, an event stream's request) of the
 * caller the headers authenticate.
 */
export type AdmitSubscription = (
  key: object,
  headers: IncomingHttpHeaders,
  params: SubscribeParams,
) => Promise<Admitted>;

export interface SubscriptionAdmissionOptions {
  schema: GraphQLSchema;
  /** The steps every operation takes, whatever its transport (admission.ts). */
  admission: Admission;
  /** The caller's live subscriptions. */
  slots: SubscriptionSlots;
  /** The connections' callers, and their subscriptions' contexts. */
  connections: LiveConnections;
  /** An error as clients see it (formatError.ts). */
  formatError(error: GraphQLError): GraphQLError;
}

/**
 * A subscription's admission, for both live transports: the steps of every operation
 * (admission.ts: its caller, its text, its document), then what only a subscription has: an
 * operation that is a subscription (queries and mutations go over POST), and a slot of its caller.
 */
export function subscriptionAdmission(options: SubscriptionAdmissionOptions): AdmitSubscription {
  const { admission } = options;
  return async (key, headers, params) => {
    try {
      // The connection's caller: authenticated at its first subscription, then again as a request
      // would be while the connection stays open (the same authentication of the same credentials).
      const { caller, context } = await options.connections.subscribe(key, () => admission.caller(headers));
      const text = admission.text(params.query, persistedHashOf(params.extensions));
      if ('refused' in text) throw text.refused;
      if (typeof text.query !== 'string') throw new TreeError('BAD_REQUEST', 'the operation has no query');
      const parsed = admission.document(text.query);
      if ('errors' in parsed) return { errors: parsed.errors.map((error) => options.formatError(error)) };
      const operationName = typeof params.operationName === 'string' ? params.operationName : undefined;
      refuseOtherOperations(parsed.document, operationName);
      const release = options.slots.take(caller);
      const args: ExecutionArgs = {
        schema: options.schema,
        document: parsed.document,
        operationName,
        variableValues: (params.variables ?? undefined) as Record<string, unknown> | undefined,
        contextValue: context,
      };
      return { args, release };
    } catch (error) {
      return { errors: [options.formatError(asGraphQLError(error))] };
    }
  };
}

/** The persisted query hash a subscription names, if any. */
function persistedHashOf(extensions: unknown): unknown {
  return (extensions as { persistedQuery?: { sha256Hash?: unknown } } | undefined)?.persistedQuery?.sha256Hash;
}

/** Refuses an operation that is not a subscription: those go over POST. */
function refuseOtherOperations(document: DocumentNode, operationName: string | undefined): void {
  if (getOperationAST(document, operationName)?.operation !== OperationTypeNode.SUBSCRIPTION)
    throw new TreeError('BAD_REQUEST', 'only subscriptions go over this transport; send queries and mutations as POST');
}
