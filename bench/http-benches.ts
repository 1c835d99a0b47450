import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { round } from './stats';

/**
 * HTTP load through the gateway with autocannon (closed loop, keep-alive): the no-op baseline
 * (Fastify + Nest + error filter + metrics hook, nothing else) and an authenticated, idempotent
 * request that does no domain work (token check, revocation + rate-limit round trip to Redis, the
 * idempotency record claimed and completed in Redis, one script each). Their difference is the gateway's own cost.
 */
const DURATION_SECONDS = 10;
/** Connections by default; issue 12's echo target is also measured at 64. */
const CONNECTIONS = 16;

export interface HttpFigures {
  requests_per_second: number;
  p50_ms: number;
  p99_ms: number;
  non_2xx: number;
  errors: number;
}

function figures(result: autocannon.Result): HttpFigures {
  return {
    requests_per_second: round(result.requests.average, 1),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

export async function benchHttpNoop(gatewayBase: string, connections = CONNECTIONS): Promise<HttpFigures> {
  const result = await autocannon({ url: `${gatewayBase}/health/live`, connections, duration: DURATION_SECONDS });
  return figures(result);
}

export async function benchAuthenticatedIdempotentEcho(
  gatewayBase: string,
  token: string,
  connections = CONNECTIONS,
): Promise<HttpFigures> {
  const result = await autocannon({
    url: `${gatewayBase}/api/v1/diagnostics/echo`,
    connections,
    duration: DURATION_SECONDS,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-auth-token': `Bearer ${token}` },
        body: '{}',
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-idempotency-key': randomUUID() },
        }),
      },
    ],
  });
  return figures(result);
}
