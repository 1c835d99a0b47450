import { All, Controller, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { envelopeA } from '@paygrid/platform';

/**
 * A sandbox simulator path we do not serve (every simulator of wire-compat §12 is built; the SDKs may add
 * more) answers, after authentication, a clear refusal naming the operation instead of a 404. Real routes win
 * over this catch-all (Fastify prefers the more specific route).
 *
 * HTTP 400 envelope A `invalid_request_error` / `operation_not_available`, deliberately not a 5xx: the
 * official SDKs retry every 5xx (and 408, 429) twice more, and an operation that does not exist yet will not
 * appear between two retries (docs/conformance.md). Simulator paths are spelled as the SDKs call them,
 * `/v1/simulation/...` (wire-compat §12).
 */
// Placeholders, not operations: each is documented when its service arrives.
@ApiExcludeController()
@Controller()
export class UnavailableController {
  @All(['v1/simulation/*'])
  notYet(@Req() request: FastifyRequest) {
    throw operationNotAvailable(`${request.method} ${request.url.split('?')[0]}`);
  }
}

export function operationNotAvailable(operation: string) {
  return envelopeA('invalid_request_error', 'operation_not_available', `${operation} is not available yet on this platform`);
}
