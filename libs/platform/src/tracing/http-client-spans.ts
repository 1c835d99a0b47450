import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { inSpan } from './tracer';

/**
 * A CLIENT span around one outgoing HTTP call (webhook delivery). Only the method, host and port are
 * recorded, never the path or query: merchant webhook URLs often carry a secret token there.
 * No trace header goes out: the receiver is a merchant, not part of Paygrid's traces.
 */
export interface HttpOutcome {
  statusCode: number | null;
  error: string | null;
}

export function traceHttpCall<R extends HttpOutcome>(
  method: string,
  rawUrl: string,
  call: () => Promise<R>,
): Promise<R> {
  const target = parseUrl(rawUrl);
  const attributes = {
    'http.request.method': method,
    ...(target
      ? {
          'server.address': target.hostname,
          'server.port': portOf(target),
          'url.scheme': target.protocol.replace(':', ''),
        }
      : {}),
  };
  return inSpan(method, { kind: SpanKind.CLIENT, attributes }, context.active(), async (span) => {
    const outcome = await call();
    if (outcome.statusCode !== null) span.setAttribute('http.response.status_code', outcome.statusCode);
    if (outcome.error !== null || outcome.statusCode === null || outcome.statusCode >= 400) {
      span.setAttribute('error.type', outcome.statusCode === null ? 'network' : String(outcome.statusCode));
      span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? `HTTP ${outcome.statusCode}` });
    }
    return outcome;
  });
}

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}
