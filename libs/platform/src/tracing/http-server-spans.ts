import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { context, Context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { CORRELATION_HEADER } from '../logging/correlation';
import { tracer } from './tracer';

/**
 * One SERVER span per HTTP request, `<METHOD> <route>`: the root of a payment's trace at the gateway.
 *
 * Always a new trace: a `traceparent` from the internet is not trusted (it would let any caller choose
 * trace ids and force sampling). The correlation id the caller sees (`x-request-id`) is recorded on the
 * span, so a merchant's quote of it finds the trace. Probes and scrapes (/health, /metrics) are not
 * traced.
 *
 * The span is made active in onRequest, again in preHandler (right before the handler, so the handler
 * runs in it whatever async hops body parsing and plugins took) and in onResponse, so the access log
 * line (start-app.ts, the next onResponse hook) names the trace. A request no route matched (the
 * router's 404) is not traced.
 */
const TRACE_CONTEXT = Symbol('paygrid.trace-context');
type TracedRequest = FastifyRequest & { [TRACE_CONTEXT]?: Context };

export function bindHttpTracing(fastify: FastifyInstance): void {
  // Route-level hooks, added as each route is registered, so probes and scrapes open no span and get
  // no abort listener. onResponse stays global: it must run before start-app's access-log hook (the
  // next global one) to put the span back in context, and costs an untraced request one property read.
  fastify.addHook('onRoute', (route: RouteOptions) => {
    if (untraced(route.url)) return;
    route.onRequest = [...hooksOf(route.onRequest), startServerSpan];
    route.preHandler = [...hooksOf(route.preHandler), reenterSpan];
    route.onRequestAbort = [...hooksOf(route.onRequestAbort), abortServerSpan];
  });
  fastify.addHook('onResponse', endServerSpan);
}

function untraced(url: string): boolean {
  return url.startsWith('/health') || url === '/metrics';
}

function hooksOf<H>(hooks: H | H[] | undefined): H[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

function startServerSpan(request: TracedRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const route = request.routeOptions?.url;
  const span = tracer().startSpan(
    route ? `${request.method} ${route}` : request.method,
    {
      kind: SpanKind.SERVER,
      attributes: {
        'http.request.method': request.method,
        'url.path': request.url.split('?')[0],
        ...(route ? { 'http.route': route } : {}),
        'paygrid.correlation_id': String(request.headers[CORRELATION_HEADER] ?? ''),
      },
    },
    ROOT_CONTEXT,
  );
  const active = trace.setSpan(ROOT_CONTEXT, span);
  request[TRACE_CONTEXT] = active;
  context.with(active, done);
}

function reenterSpan(request: TracedRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const active = request[TRACE_CONTEXT];
  return active ? context.with(active, done) : done();
}

function endServerSpan(request: TracedRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const active = request[TRACE_CONTEXT];
  if (!active) return done();
  const span = trace.getSpan(active);
  span?.setAttribute('http.response.status_code', reply.statusCode);
  if (reply.statusCode >= 500) span?.setStatus({ code: SpanStatusCode.ERROR });
  span?.end();
  context.with(active, done);
}

function abortServerSpan(request: TracedRequest, done: HookHandlerDoneFunction): void {
  const span = request[TRACE_CONTEXT] && trace.getSpan(request[TRACE_CONTEXT]);
  span?.setStatus({ code: SpanStatusCode.ERROR, message: 'client closed the request' });
  span?.end();
  done();
}
