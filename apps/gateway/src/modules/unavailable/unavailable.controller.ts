import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Errors } from '@paygrid/platform';

/**
 * Spec operations whose service is not built yet (issuing balances, transfers, transactions and reports, simulators) answer a clear api_error naming the operation, after
 * authentication, instead of a 404. Each issue that builds a service replaces its part
 * with real routes (Fastify prefers the more specific route, so real routes win over these).
 */
// Placeholders, not operations: each is documented when its service arrives.
@ApiExcludeController()
@Controller()
export class UnavailableController {
  @All(['v1/issuing/balances*', 'v1/issuing/transfers*', 'v1/issuing/reports*', 'v1/simulator/*'])
  notYet(@Req() request: FastifyRequest) {
    throw Errors.operationNotAvailable(`${request.method} ${request.url.split('?')[0]}`);
  }
}
