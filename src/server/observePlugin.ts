import type { ApolloServerPlugin } from '@apollo/server';
import type { Caller } from '../auth/caller.js';
import type { DynamoCost } from '../dynamodb/costMeter.js';
import type { Logger } from './logger.js';
import { childCache, type Metrics } from './metrics.js';
import { failOperationSpan, nameOperationSpan } from './tracing.js';

/** Past this many distinct operation names, the others are labelled "other" (clients choose names). */
const MAX_OPERATION_LABELS = 200;

/**
 * One log line per GraphQL request (operation name and type, the caller's tenant unless it is
 * the default one, duration, DynamoDB cost, HTTP status, error codes), its span's name and status
 * (tracing.ts), and the request metrics. Errors are logged at `warn` when the answer
 * holds any; unexpected ones (INTERNAL_SERVER_ERROR) at `error`.
 */
export function createObservePlugin(
  logger: Logger,
  metrics: Metrics,
): ApolloServerPlugin<{ cost?: DynamoCost; caller?: Caller }> {
  const labels = new Set<string>();
  const label = (name: string): string => {
    if (labels.has(name)) return name;
    if (labels.size >= MAX_OPERATION_LABELS) return 'other';
    labels.add(name);
    return name;
  };
  const requestsOf = childCache((operation: string, type: string, outcome: string) =>
    metrics.requests.labels(operation, type, outcome),
  );
  const latencyOf = childCache((operation: string, type: string) => metrics.latency.labels(operation, type));
  const errorsOf = childCache((code: string) => metrics.errors.labels(code));
  return {
    async requestDidStart() {
      const started = performance.now();
      return {
        async didResolveOperation({ operationName, operation }) {
          if (operation) nameOperationSpan(operation.operation, operationName ?? undefined);
        },
        async willSendResponse({ response, contextValue, operationName, operation }) {
          const seconds = (performance.now() - started) / 1000;
          const errors = response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : [];
          const codes = errors.map((error) => {
            const code = error.extensions?.code;
            return typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR';
          });
          const name = label(operationName ?? 'anonymous');
          const type = operation?.operation ?? 'none';
          requestsOf(name, type, codes.length > 0 ? 'error' : 'ok').inc();
          latencyOf(name, type).observe(seconds);
          for (const code of codes) errorsOf(code).inc();
          if (codes.length > 0) failOperationSpan(codes);
          const level = codes.includes('INTERNAL_SERVER_ERROR') ? 'error' : codes.length > 0 ? 'warn' : 'info';
          // Fields added by assignment, not spread: an object spread goes through V8's runtime.
          const line: Record<string, unknown> = { operation: operationName ?? null, type };
          if (contextValue.caller?.tenant) line.tenant = contextValue.caller.tenant;
          line.ms = Math.round(seconds * 10_000) / 10;
          line.status = response.http.status ?? 200;
          const cost = contextValue.cost;
          line.dynamodb = cost
            ? { requests: cost.requests, itemsRead: cost.itemsRead, itemsWritten: cost.itemsWritten }
            : undefined;
          if (codes.length > 0) line.errors = codes;
          logger[level](line, 'graphql request');
        },
      };
    },
  };
}
