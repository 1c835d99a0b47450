import { Controller, Get, Inject, Optional, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HEALTH_CHECKS, KAFKA_ADMIN } from '../nest/tokens';
import { ConsumerHealth } from './consumer-health';
import { KafkaAdminHandle } from '../kafka/kafka-admin';
import { withDeadline } from '../bootstrap/with-deadline';

/**
 * Readiness (`/health/ready`) says the app can do its work now: every dependency answers (Postgres,
 * Kafka, Redis, whichever the app uses) and every Kafka consumer consumes, each probed with a short
 * timeout so a hung dependency cannot hang the probe. An orchestrator stops routing to it meanwhile.
 *
 * Liveness (`/health/live`) says a restart would not help: the process serves HTTP, and no consumer has
 * been unable to consume for LIVENESS_CONSUMER_GRACE_MS while the broker answers. Consumers restart
 * themselves (supervised-consumer.ts), so that only happens to a process wedged in a way nothing
 * planned for; a broker outage, however long, never fails liveness (restarting every pod then would
 * only add a crash loop's backoff to the recovery).
 */
export const LIVENESS_CONSUMER_GRACE_MS = 120_000;

export interface HealthCheck {
  name: string;
  check(): Promise<unknown>;
}

export interface HealthReport {
  status: 'up' | 'down';
  checks: Record<string, { status: 'up' | 'down'; latency_ms: number; error?: string }>;
}

const CHECK_TIMEOUT_MS = 2000;
const NO_ANSWER = `no answer within ${CHECK_TIMEOUT_MS} ms`;

export async function runHealthChecks(checks: HealthCheck[]): Promise<HealthReport> {
  const entries = await Promise.all(
    checks.map(async ({ name, check }) => {
      const started = Date.now();
      try {
        await withDeadline(check(), CHECK_TIMEOUT_MS, NO_ANSWER);
        return [name, { status: 'up' as const, latency_ms: Date.now() - started }] as const;
      } catch (error) {
        const message = error instanceof Error ? error.message : 'unavailable';
        return [name, { status: 'down' as const, latency_ms: Date.now() - started, error: message }] as const;
      }
    }),
  );
  const allUp = entries.every(([, result]) => result.status === 'up');
  return { status: allUp ? 'up' : 'down', checks: Object.fromEntries(entries) };
}

async function brokerAnswers(admin: KafkaAdminHandle): Promise<boolean> {
  try {
    await withDeadline(admin.describeCluster(), CHECK_TIMEOUT_MS, NO_ANSWER);
    return true;
  } catch {
    return false;
  }
}

@Controller('health')
export class HealthController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    @Optional() private readonly consumers?: ConsumerHealth,
    @Optional() @Inject(KAFKA_ADMIN) private readonly admin?: KafkaAdminHandle,
  ) {}

  @Get('live')
  async live(@Res() reply: FastifyReply) {
    const wedged = this.consumers?.downLongerThan(LIVENESS_CONSUMER_GRACE_MS) ?? [];
    if (wedged.length > 0 && this.admin && (await brokerAnswers(this.admin))) {
      void reply.status(503).send({ status: 'down', wedged_consumers: wedged });
      return;
    }
    void reply.status(200).send({ status: 'up' });
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply) {
    const report = await runHealthChecks(this.checks);
    void reply.status(report.status === 'up' ? 200 : 503).send(report);
  }
}
