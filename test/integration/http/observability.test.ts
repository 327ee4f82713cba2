import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger } from '../../support/capturedLogger.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { buildTree, okData } from '../../support/tree.js';

/** A log line per request, the metrics at /metrics and the spans, with their DynamoDB side. */
describe('logs and metrics', () => {
  let server: TestServer;
  const { logger, lines } = capturedLogger();

  beforeAll(async () => {
    server = await startTestServer({ logger });
    await buildTree(server, { id: 'o-root', children: [{ id: 'o-child' }] });
  });
  afterAll(() => server?.close());

  it('logs one JSON line per request: operation, type, duration, DynamoDB cost, status, error codes', async () => {
    okData(await server.gql('query Lookup { node(id: "o-root") { id childCount } }'));
    await server.gql('query Broken { node(id: "") { id } }');
    const lookup = lines.find((line) => line.msg === 'graphql request' && line.operation === 'Lookup');
    expect(lookup).toMatchObject({
      level: 30,
      service: 'canopy',
      type: 'query',
      status: 200,
      dynamodb: { requests: 1, itemsRead: 1, itemsWritten: 0 },
    });
    expect(typeof lookup?.ms).toBe('number');
    expect(typeof lookup?.time).toBe('string');
    const broken = lines.find((line) => line.msg === 'graphql request' && line.operation === 'Broken');
    expect(broken).toMatchObject({ level: 40, errors: ['BAD_USER_INPUT'] });
  });

  it('serves metrics: requests by operation, DynamoDB calls by command, errors by code, open jobs', async () => {
    okData(await server.gql('query Counted { node(id: "o-child") { id } }'));
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^canopy_graphql_requests_total\{operation="Counted",type="query",outcome="ok"\} 1$/m);
    expect(text).toMatch(/^canopy_graphql_request_duration_seconds_count\{operation="Counted",type="query"\} 1$/m);
    expect(text).toMatch(/^canopy_graphql_errors_total\{code="BAD_USER_INPUT"\} [1-9]/m);
    expect(text).toMatch(/^canopy_dynamodb_calls_total\{command="BatchGetItem",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^canopy_dynamodb_calls_total\{command="TransactWriteItems",outcome="ok"\} [1-9]/m);
    expect(text).toMatch(/^canopy_open_jobs 0$/m);
    expect(text).toMatch(/^process_cpu_seconds_total /m);
  });
});

describe('tracing', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let server: TestServer;

  beforeAll(async () => {
    provider.register();
    server = await startTestServer();
    await buildTree(server, { id: 't-root', children: [{ id: 't-child' }] });
  });
  afterAll(async () => {
    await server?.close();
    await provider.shutdown();
    trace.disable();
    context.disable();
  });

  it('records a span per operation, and one per DynamoDB call inside it', async () => {
    exporter.reset();
    okData(await server.gql('query Traced { node(id: "t-root") { id children { nodes { id } } } }'));
    const spans = exporter.getFinishedSpans();
    const operation = spans.find((span) => span.name === 'query Traced');
    expect(operation).toBeDefined();
    expect(operation!.kind).toBe(SpanKind.SERVER);
    expect(operation!.attributes).toMatchObject({
      'graphql.operation.name': 'Traced',
      'graphql.operation.type': 'query',
      'http.response.status_code': 200,
    });
    const calls = spans.filter((span) => span.parentSpanContext?.spanId === operation!.spanContext().spanId);
    expect(calls.map((span) => span.name).sort()).toEqual(['DynamoDB BatchGetItem', 'DynamoDB Query']);
    expect(
      calls.every((span) => span.kind === SpanKind.CLIENT && span.attributes['db.operation.name'] !== undefined),
    ).toBe(true);
  });

  it('marks the span of a failed operation', async () => {
    exporter.reset();
    await server.gql('query Broken { node(id: "") { id } }');
    const operation = exporter.getFinishedSpans().find((span) => span.name === 'query Broken');
    expect(operation?.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'BAD_USER_INPUT' });
  });
});
