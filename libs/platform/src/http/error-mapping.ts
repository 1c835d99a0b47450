import { HttpException } from '@nestjs/common';
import { ApiError, Errors } from '../errors/api-error';

/**
 * Turns anything thrown while serving HTTP into one of the spec's envelopes. Fastify's own body
 * errors map to the spec's cases (unparseable body or missing Content-Type: envelope B "Params JSON
 * error"; too large: 413). Unknown errors become a bare api_error: their message and stack stay in the
 * logs, never in a response.
 */
const PARAMS_JSON_ERRORS = new Set([
  'FST_ERR_CTP_INVALID_JSON_BODY',
  'FST_ERR_CTP_EMPTY_JSON_BODY',
  'FST_ERR_CTP_INVALID_MEDIA_TYPE',
  'FST_ERR_CTP_INVALID_CONTENT_LENGTH',
  'FST_ERR_CTP_INVALID_TYPE',
]);

export const BODY_LIMIT_BYTES = 1024 * 1024;

export function toApiError(error: unknown): { apiError: ApiError; unexpected: boolean } {
  if (error instanceof ApiError) return { apiError: error, unexpected: false };
  const code = (error as { code?: unknown })?.code;
  const statusCode = (error as { statusCode?: unknown })?.statusCode;
  if (typeof code === 'string' && PARAMS_JSON_ERRORS.has(code)) {
    return { apiError: Errors.paramsJsonError(), unexpected: false };
  }
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || statusCode === 413) {
    return { apiError: Errors.payloadTooLarge(BODY_LIMIT_BYTES), unexpected: false };
  }
  if (error instanceof SyntaxError && statusCode === 400) {
    return { apiError: Errors.paramsJsonError(), unexpected: false };
  }
  if (error instanceof HttpException) {
    // Nest turns Fastify's own errors (limits, content types) into HttpExceptions with their status.
    const status = error.getStatus();
    if (status === 404) return { apiError: Errors.routeNotFound('', '').withMessage('no such route'), unexpected: false };
    if (status === 413) return { apiError: Errors.payloadTooLarge(BODY_LIMIT_BYTES), unexpected: false };
    if (status === 415) return { apiError: Errors.paramsJsonError(), unexpected: false };
    if (status < 500) return { apiError: Errors.invalidRequest(error.message), unexpected: false };
  }
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return { apiError: Errors.invalidRequest('the request could not be read'), unexpected: false };
  }
  return { apiError: Errors.internal(), unexpected: true };
}
