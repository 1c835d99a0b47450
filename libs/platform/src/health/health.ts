import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HEALTH_CHECKS } from '../nest/tokens';

/**
 * Liveness says the process serves HTTP; readiness says every dependency answers (Postgres, Kafka,
 * Redis, whichever the app uses), each probed with a short timeout so a hung dependency cannot hang
 * the probe.
 */
export interface HealthCheck {
  name: string;
  check(): Promise<unknown>;
}

export interface HealthReport {
  status: 'up' | 'down';
  checks: Record<string, { status: 'up' | 'down'; latency_ms: number; error?: string }>;
}

const CHECK_TIMEOUT_MS = 2000;

export async function runHealthChecks(checks: HealthCheck[]): Promise<HealthReport> {
  const entries = await Promise.all(
    checks.map(async ({ name, check }) => {
      const started = Date.now();
      try {
        await withTimeout(check(), CHECK_TIMEOUT_MS);
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

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timedOut]).finally(() => clearTimeout(timer));
}

@Controller('health')
export class HealthController {
  constructor(@Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[]) {}

  @Get('live')
  live() {
    return { status: 'up' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply) {
    const report = await runHealthChecks(this.checks);
    void reply.status(report.status === 'up' ? 200 : 503).send(report);
  }
}
