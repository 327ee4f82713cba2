import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The Prometheus metrics served at /metrics (prom-client), one registry per server: GraphQL
 * requests and their latency by operation, DynamoDB calls by command and outcome, errors by code,
 * open jobs, and the process's own (CPU, memory, event loop).
 */
export interface Metrics {
  registry: Registry;
  requests: Counter<'operation' | 'type' | 'outcome'>;
  latency: Histogram<'operation' | 'type'>;
  dynamodbCalls: Counter<'command' | 'outcome'>;
  errors: Counter<'code'>;
  /** Live subscriptions: WebSocket connections, subscriptions held, events sent, their lag, consumers closed. */
  liveConnections: Gauge;
  liveSubscriptions: Gauge;
  liveEvents: Counter;
  liveLag: Histogram;
  liveDropped: Counter;
}

/**
 * A metric's child for a tuple of label values, kept once made: prom-client hashes the labels
 * (sorting their names) on every `inc` or `observe` otherwise, 1% of a lookup's CPU. The label
 * values are bounded (operation names are capped, codes and commands are fixed sets).
 */
export function childCache<V extends string[], C>(labels: (...values: V) => C): (...values: V) => C {
  const children = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (!child) children.set(key, (child = labels(...values)));
    return child;
  };
}

/**
 * The process's own metrics (CPU, memory, event loop lag), collected once per process: each
 * collection keeps a timer that samples the event loop, and a process may run several servers.
 * The sampling timer fires every 100 ms, not prom-client's 10: an idle server used 2% of a core
 * on those wake-ups alone (now 1.2%).
 */
let processRegistry: Registry | undefined;

/** The registry of the process's own metrics, made on first use. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, eventLoopMonitoringPrecision: 100 });
  }
  return processRegistry;
}

/** Seconds, from 5 ms to 10 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One server's metrics: its own, merged with the process's. */
export function createMetrics(openJobs: () => Promise<number>): Metrics {
  const shared = processMetrics();
  const own = new Registry();
  const metrics = { ...operationMetrics(own), ...liveMetrics(own) };
  openJobsGauge(own, openJobs);
  // Merged once every metric is registered: a merge copies the metrics it is given.
  return { ...metrics, registry: Registry.merge([shared, own]) };
}

/** GraphQL operations (answered, their latency, their errors) and the DynamoDB calls they make. */
function operationMetrics(own: Registry): Pick<Metrics, 'requests' | 'latency' | 'dynamodbCalls' | 'errors'> {
  return {
    requests: new Counter({
      name: 'canopy_graphql_requests_total',
      help: 'GraphQL operations answered, by operation name (or "anonymous"), type and outcome (ok or error)',
      labelNames: ['operation', 'type', 'outcome'],
      registers: [own],
    }),
    latency: new Histogram({
      name: 'canopy_graphql_request_duration_seconds',
      help: 'Time from the start of a GraphQL operation to its answer, by operation name and type',
      labelNames: ['operation', 'type'],
      buckets: LATENCY_BUCKETS,
      registers: [own],
    }),
    dynamodbCalls: new Counter({
      name: 'canopy_dynamodb_calls_total',
      help:
        'DynamoDB calls, by command (BatchGetItem, Query, TransactWriteItems, ...) ' +
        'and outcome (ok, or the error name)',
      labelNames: ['command', 'outcome'],
      registers: [own],
    }),
    errors: new Counter({
      name: 'canopy_graphql_errors_total',
      help: 'Errors in GraphQL answers, by code (NOT_FOUND, CONFLICT, SERVICE_UNAVAILABLE, ...)',
      labelNames: ['code'],
      registers: [own],
    }),
  };
}

/** Live subscriptions: connections, subscriptions held, events sent and their lag, consumers closed. */
function liveMetrics(
  own: Registry,
): Pick<Metrics, 'liveConnections' | 'liveSubscriptions' | 'liveEvents' | 'liveLag' | 'liveDropped'> {
  return {
    liveConnections: new Gauge({
      name: 'canopy_live_connections',
      help: 'GraphQL over WebSocket connections open',
      registers: [own],
    }),
    liveSubscriptions: new Gauge({
      name: 'canopy_live_subscriptions',
      help: 'treeChanges subscriptions held (WebSocket and Server-Sent Events)',
      registers: [own],
    }),
    liveEvents: new Counter({
      name: 'canopy_live_events_total',
      help: 'Changes sent to subscribers',
      registers: [own],
    }),
    liveLag: new Histogram({
      name: 'canopy_live_delivery_lag_seconds',
      help: 'Time from a change committing to its being sent to a subscriber',
      buckets: LATENCY_BUCKETS,
      registers: [own],
    }),
    liveDropped: new Counter({
      name: 'canopy_live_dropped_consumers_total',
      help: 'Subscribers closed for reading too slowly (SLOW_CONSUMER)',
      registers: [own],
    }),
  };
}

/** The jobs running, read when scraped (NaN when they cannot be read). */
function openJobsGauge(own: Registry, openJobs: () => Promise<number>): void {
  new Gauge({
    name: 'canopy_open_jobs',
    help: 'Jobs running (moves, deletes, reindexes), read when scraped',
    registers: [own],
    async collect() {
      this.set(await openJobs().catch(() => Number.NaN));
    },
  });
}
