import {
  Attributes,
  context,
  Context,
  diag,
  DiagLogLevel,
  Link,
  propagation,
  Span,
  SpanKind,
  SpanStatusCode,
  TimeInput,
  trace,
  Tracer,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  Sampler,
  SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { Logger } from 'pino';
import { scrubText } from '../logging/redaction';
import { TracingConfig } from './tracing-config';

/**
 * The process's OpenTelemetry setup, installed once at boot (createHttpApp).
 *
 * Always: an AsyncLocalStorage context manager, so the active span follows the work through awaits
 * and every log line can name its trace; trace ids are minted at the gateway and travel in W3C
 * headers whether or not anything is exported. With OTEL_EXPORTER_OTLP_ENDPOINT set: a parent-based
 * ratio sampler and a batching OTLP/HTTP exporter. Without it: a sampler that records nothing, so a
 * span is a non-recording id carrier (no attributes kept, no processor, no exporter) and the
 * database instrumentation (pg-tracing.ts) steps aside entirely.
 *
 * No auto-instrumentation: spans are opened at the few places that matter (HTTP in, command send and
 * handling, event consumption, outbox publication, database work, webhook delivery), which keeps the
 * cost per request to a handful of spans.
 */
export const TRACER_NAME = '@paygrid/platform';

let provider: TracerProvider | undefined;

export interface TracingSetup {
  sampler: Sampler;
  spanProcessors: SpanProcessor[];
}

/** Installs tracing for `app` from its config; a second call in the same process changes nothing. */
export function installTracing(app: string, config: TracingConfig, logger?: Logger): void {
  if (provider) return;
  const endpoint = config.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (endpoint === undefined) {
    register(app, { sampler: new AlwaysOffSampler(), spanProcessors: [] });
    return;
  }
  if (logger) diag.setLogger(pinoDiagLogger(logger), DiagLogLevel.WARN);
  const exporter = new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` });
  register(app, {
    sampler: new ParentBasedSampler({
      root: new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG ?? 1),
    }),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 1000 })],
  });
}

/**
 * Test seam: records every span into the given processors (an in-memory exporter), replacing
 * whatever was installed. Apps booted afterwards in the same process keep it.
 */
export function installTracingForTests(app: string, spanProcessors: SpanProcessor[]): void {
  if (provider) uninstall();
  register(app, { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), spanProcessors });
}

/**
 * Sends what is buffered (at shutdown); resolves at once when nothing is exported. Never rejects: a
 * collector that is down must not fail an app's shutdown (the loss is logged).
 */
export async function flushTracing(): Promise<void> {
  await provider
    ?.forceFlush()
    .catch((error: unknown) => diag.warn('flushing spans failed; they are lost', error));
}

/** Undoes installTracing (tests); spans already buffered are exported first. */
export async function uninstallTracing(): Promise<void> {
  const current = provider;
  uninstall();
  await current
    ?.shutdown()
    .catch((error: unknown) => diag.warn('flushing spans failed; they are lost', error));
}

function register(app: string, setup: TracingSetup): void {
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': app, 'service.namespace': 'paygrid' }),
    sampler: setup.sampler,
    spanProcessors: setup.spanProcessors,
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
}

function uninstall(): void {
  trace.disable();
  propagation.disable();
  context.disable();
  provider = undefined;
}

/** Looked up per use (a map lookup): a cached tracer would outlive a reinstall in tests. */
export function tracer(): Tracer {
  return trace.getTracer(TRACER_NAME);
}

export interface SpanSpec {
  kind: SpanKind;
  attributes?: Attributes;
  links?: Link[];
  startTime?: TimeInput;
}

/**
 * Runs `work` inside a new span, child of `parent`: the span is active for everything `work` awaits,
 * ends when it settles, and a thrown error marks it failed (and is rethrown unchanged).
 */
export async function inSpan<T>(
  name: string,
  spec: SpanSpec,
  parent: Context,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const span = tracer().startSpan(name, spec, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed; messages and stacks pass the card-data scrubber, as log lines do. */
export function markFailed(span: Span, error: unknown): void {
  if (!span.isRecording()) return;
  const message = scrubText(error instanceof Error ? error.message : String(error));
  span.addEvent('exception', {
    'exception.type': error instanceof Error ? error.name : typeof error,
    'exception.message': message,
    ...(error instanceof Error && error.stack ? { 'exception.stacktrace': scrubText(error.stack) } : {}),
  });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** The SDK's own complaints (a collector that is down) at warn at most: tracing never fails a request. */
function pinoDiagLogger(logger: Logger) {
  const write =
    (level: 'warn' | 'info' | 'debug') =>
    (message: string, ...args: unknown[]) =>
      logger[level]({ otel: args.length > 0 ? args : undefined }, `tracing: ${message}`);
  return {
    error: write('warn'),
    warn: write('warn'),
    info: write('info'),
    debug: write('debug'),
    verbose: write('debug'),
  };
}
