import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Metrics } from './metrics';

@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  async scrape(@Res() reply: FastifyReply) {
    void reply.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
