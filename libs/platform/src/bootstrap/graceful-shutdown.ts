import { INestApplication } from '@nestjs/common';
import { Logger } from 'pino';
import { HttpDrain } from '../http/http-drain';

/**
 * SIGTERM (an orchestrator stopping the pod, `npm start` stopping an app) or SIGINT: stop taking work,
 * finish the work in flight, then close, all within the orchestrator's grace period.
 * 1. New requests get 503 `api_error` with Retry-After (HttpDrain), readiness too, so the load balancer
 *    and clients move on; requests in flight run to their end, for at most `drainMs` (longer than the
 *    gateway's command timeout, so a request waiting for its reply gets it).
 * 2. Nest closes: the command consumer leaves its group, the outbox relay stops after its batch, the
 *    connections close.
 * 3. Whatever is still hanging at `deadlineMs` (a broker that does not answer a leave-group, say) does not
 *    hold the pod: the process exits 1. Kubernetes' default grace is 30 s, 5 of which the preStop pause
 *    uses (deploy/k8s), so the deadline is 22 s.
 */
export interface ShutdownTimings {
  drainMs: number;
  deadlineMs: number;
}

export const SHUTDOWN_TIMINGS: ShutdownTimings = { drainMs: 15_000, deadlineMs: 22_000 };

export function stopOnSignals(
  app: INestApplication,
  drain: HttpDrain,
  logger: Logger,
  timings: ShutdownTimings = SHUTDOWN_TIMINGS,
): void {
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    const deadline = setTimeout(() => {
      logger.error(
        { signal, deadline_ms: timings.deadlineMs },
        'shutdown did not finish in time; exiting anyway',
      );
      process.exit(1);
    }, timings.deadlineMs);
    deadline.unref();
    logger.info(
      { signal, in_flight: drain.inFlight },
      'shutting down: refusing new requests, finishing those in flight',
    );
    drain.begin();
    if (!(await drain.idle(timings.drainMs))) {
      logger.warn(
        { in_flight: drain.inFlight },
        'requests still in flight after the drain period; closing anyway',
      );
    }
    try {
      await app.close();
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
    logger.info({ duration_ms: Date.now() - started }, 'stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
