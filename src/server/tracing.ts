import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { DynamoCall } from '../dynamodb/client.js';
import { VERSION } from '../version.js';

/**
 * OpenTelemetry spans: one per GraphQL operation (named after it: `query Lookup`), and one per
 * DynamoDB call attempt inside it (`DynamoDB Query`). The code always speaks to the OpenTelemetry
 * API; nothing is recorded (and nothing costs more than a no-op) unless a tracer provider is
 * registered: startTracing does it when the standard OTEL variables ask for it. The tracer is the
 * API's proxy, looked up once: it follows a provider registered later.
 */
const tracer = trace.getTracer('canopy', VERSION);

/** Exports spans (OTLP over HTTP, or to the console) when config.tracing says so; answers the shutdown. */
export function startTracing(config: Config): () => Promise<void> {
  if (config.tracing === 'none') return async () => {};
  const exporter = config.tracing === 'console' ? new ConsoleSpanExporter() : new OTLPTraceExporter();
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName, 'service.version': VERSION }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  provider.register();
  return () => provider.shutdown();
}

/**
 * Runs `work` (the GraphQL request, once its body is parsed) in the operation's span, which ends
 * with the response.
 */
export function traceRequest(res: ServerResponse, method: string, work: () => void): void {
  const span = tracer.startSpan('graphql', { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } });
  // No tracer provider: nothing records, and there is no trace for the calls inside to join.
  if (!span.isRecording() && !trace.isSpanContextValid(span.spanContext())) return work();
  res.once('finish', () => {
    span.setAttribute('http.response.status_code', res.statusCode);
    span.end();
  });
  context.with(trace.setSpan(context.active(), span), work);
}

/** Names the current operation's span after the operation, once it is known. */
export function nameOperationSpan(type: string, name: string | undefined): void {
  const span = trace.getActiveSpan();
  span?.updateName(name ? `${type} ${name}` : type);
  span?.setAttributes({ 'graphql.operation.type': type, ...(name ? { 'graphql.operation.name': name } : {}) });
}

/** Marks the current operation's span failed, with the answer's error codes. */
export function failOperationSpan(codes: string[]): void {
  const span = trace.getActiveSpan();
  span?.setAttribute('graphql.error.codes', codes);
  span?.setStatus({ code: SpanStatusCode.ERROR, message: codes.join(', ') });
}

/** The span of a DynamoDB call attempt that just ended (called in the call's own context). */
export function traceDynamoCall(table: string, call: DynamoCall): void {
  const span: Span = tracer.startSpan(
    `DynamoDB ${call.command}`,
    {
      kind: SpanKind.CLIENT,
      startTime: Date.now() - call.ms,
      attributes: {
        'db.system.name': 'aws.dynamodb',
        'db.operation.name': call.command,
        'aws.dynamodb.table_names': [table],
      },
    },
    context.active(),
  );
  if (call.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: call.outcome });
  span.end();
}
