import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CommandFamily, CommandTopics, PING_COMMAND } from '@paygrid/contracts';
import { CommandBus, HEALTH_CHECKS, HealthCheck, runHealthChecks } from '@paygrid/platform';
import { COMMAND_BUS } from '../commands/command-bus.provider';
import { Public } from '../auth/route-policy.decorator';

/**
 * `GET /api/health`: the gateway's own dependencies (Postgres, Kafka, Redis) and every service,
 * each pinged over its command topic, so "up" means a request can really make the round trip.
 */
const PING_TIMEOUT_MS = 1500;

// A probe for operators and orchestrators, not part of the merchant API reference.
@ApiExcludeController()
@Controller('health')
export class GatewayHealthController {
  constructor(
    @Inject(HEALTH_CHECKS) private readonly checks: HealthCheck[],
    @Inject(COMMAND_BUS) private readonly bus: CommandBus,
  ) {}

  @Get()
  @Public()
  async health(@Res() reply: FastifyReply) {
    const services = (Object.keys(CommandTopics) as CommandFamily[]).map((family) => ({
      name: `service:${family}`,
      check: () => this.bus.send(family, PING_COMMAND, {}, { actor: null, timeoutMs: PING_TIMEOUT_MS }),
    }));
    const report = await runHealthChecks([...this.checks, ...services]);
    void reply.status(report.status === 'up' ? 200 : 503).send(report);
  }
}
