import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Logger } from 'pino';
import { ApiError, Errors } from '../errors/api-error';
import { LOGGER } from '../nest/tokens';
import { toApiError } from './error-mapping';

/** Writes an ApiError as JSON with its status and headers. */
export function sendApiError(reply: FastifyReply, error: ApiError): void {
  void reply.status(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.body);
}

function report(logger: Logger, error: unknown, request: FastifyRequest | undefined, unexpected: boolean) {
  if (unexpected) logger.error({ err: error, method: request?.method, route: request?.routeOptions?.url }, 'request failed');
}

/** The one exception filter of every HTTP app. */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const { apiError, unexpected } = toApiError(exception);
    report(this.logger, exception, request, unexpected);
    const routed =
      apiError.status === 404 && !(exception instanceof ApiError)
        ? Errors.routeNotFound(request.method, request.url.split('?')[0])
        : apiError;
    sendApiError(http.getResponse<FastifyReply>(), routed);
  }
}

/**
 * Errors raised by Fastify itself (body parsing, limits) before any Nest handler runs. Unknown routes
 * need nothing here: Nest's own not-found handler throws into HttpErrorFilter.
 */
export function installFastifyErrorHandlers(fastify: FastifyInstance, logger: Logger): void {
  fastify.setErrorHandler((error, request, reply) => {
    const { apiError, unexpected } = toApiError(error);
    report(logger, error, request, unexpected);
    sendApiError(reply, apiError);
  });
}
