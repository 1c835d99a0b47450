import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { CORRELATION_HEADER, runWithCorrelation, sanitizeCorrelationId } from './correlation';

/**
 * Opens the correlation scope for each HTTP request: the caller's `x-request-id` when it is a sane
 * value, else a new one, echoed in the response so a merchant can quote it to support.
 */
export function bindHttpCorrelation(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const correlationId = sanitizeCorrelationId(request.headers[CORRELATION_HEADER]) ?? randomUUID();
    // Normalised onto the request too: code that crosses async boundaries where the scope may not
    // follow (Nest's handler pipeline) reads it from here.
    request.headers[CORRELATION_HEADER] = correlationId;
    void reply.header(CORRELATION_HEADER, correlationId);
    runWithCorrelation(correlationId, done);
  });
}
